// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {IPSPVault} from "../interfaces/IPSPVault.sol";
import {PSPVaultState} from "./PSPVaultState.sol";

/// @title PSPVaultCampaigns
/// @notice The code of creating, funding and closing campaigns, kept out of the PSPVault's
/// bytecode to stay under the contract size limit (as the Factory's modules are). The vault
/// creates it in its constructor and reaches it by delegatecall, after its own role, pause and
/// reentrancy checks; the vault passes whether the caller holds MANAGER_ROLE. Holds no
/// authority and no state of its own.
contract PSPVaultCampaigns is PSPVaultState {
    using SafeERC20 for IERC20;

    address private immutable _self = address(this);

    /// @dev Called directly, the module would only touch its own empty storage; refuse anyway
    /// so nobody mistakes it for a vault.
    modifier onlyDelegateCall() {
        if (address(this) == _self) revert IPSPVault.DelegateCallOnly();
        _;
    }

    /// @notice {IPSPVault.createCampaign}, after the vault's CAMPAIGN_ADMIN_ROLE check.
    function createCampaign(
        bytes32 campaignId,
        uint256 spBudget,
        address[] calldata settlementDestinations,
        address[] calldata transferWhitelist,
        string calldata metadata,
        bool manager
    ) external onlyDelegateCall {
        if (campaignId == bytes32(0)) revert IPSPVault.InvalidCampaignId();
        _requireAtMost(settlementDestinations.length);
        _requireAtMost(transferWhitelist.length);
        PSPVaultStorage storage $ = _getStorage();
        IPSPVault.Campaign storage c = $.campaigns[campaignId];
        if (c.status != IPSPVault.CampaignStatus.None) revert IPSPVault.CampaignAlreadyExists(campaignId);
        c.creator = msg.sender;
        $.funding[campaignId].funder = msg.sender;
        c.status = IPSPVault.CampaignStatus.Active;
        c.metadata = metadata;
        emit IPSPVault.CampaignCreated(campaignId, msg.sender, spBudget, metadata);
        _setFlag($.campaignAdmins, campaignId, msg.sender, true);
        emit IPSPVault.CampaignAdminUpdated(campaignId, msg.sender, true);
        for (uint256 i = 0; i < settlementDestinations.length; ++i) {
            _updateList($, true, campaignId, settlementDestinations[i], true);
        }
        for (uint256 i = 0; i < transferWhitelist.length; ++i) {
            _updateList($, false, campaignId, transferWhitelist[i], true);
        }
        _fund($, c, campaignId, spBudget, manager);
    }

    /// @notice {IPSPVault.fundCampaign}.
    function fundCampaign(bytes32 campaignId, uint256 amount, bool manager) external onlyDelegateCall {
        PSPVaultStorage storage $ = _getStorage();
        IPSPVault.Campaign storage c = _campaign($, campaignId);
        _requireCampaignAdmin($, campaignId, manager);
        // Other admins' SP would become the funder's refund: only the funder pays, or the program.
        if (!manager && (msg.sender != $.funding[campaignId].funder || !$.campaignAdmins[campaignId][msg.sender])) {
            revert IPSPVault.NotCampaignFunder(campaignId, msg.sender);
        }
        if (c.status == IPSPVault.CampaignStatus.Closed) revert IPSPVault.InvalidCampaignStatus(campaignId, c.status);
        if (amount == 0) revert IPSPVault.ZeroAmount();
        _fund($, c, campaignId, amount, manager);
    }

    /// @notice {IPSPVault.closeCampaign}.
    function closeCampaign(bytes32 campaignId, address returnTo, bool manager) external onlyDelegateCall {
        PSPVaultStorage storage $ = _getStorage();
        IPSPVault.Campaign storage c = _campaign($, campaignId);
        _requireCampaignAdmin($, campaignId, manager);
        if (c.status == IPSPVault.CampaignStatus.Closed) revert IPSPVault.InvalidCampaignStatus(campaignId, c.status);
        Funding storage f = $.funding[campaignId];
        address funder = f.funder;
        address treasury_ = $.treasury;
        address expected = funder == address(0) ? treasury_ : funder;
        if (returnTo != expected) revert IPSPVault.InvalidReturnTo(campaignId, returnTo, expected);
        uint256 remaining = c.available;
        // Program money is given back first, so the funder never gets more than it paid.
        uint256 toProgram = funder == address(0) ? remaining : Math.min(remaining, f.programFunded);
        uint256 returned = remaining - toProgram;
        c.available = 0;
        c.status = IPSPVault.CampaignStatus.Closed;
        // Without a treasury the program's share stays in the vault, unallocated.
        $.allocated -= remaining;
        emit IPSPVault.CampaignStatusUpdated(campaignId, IPSPVault.CampaignStatus.Closed);
        emit IPSPVault.CampaignClosed(campaignId, returnTo, returned);
        if (toProgram != 0) emit IPSPVault.CampaignProgramShareReleased(campaignId, treasury_, toProgram);
        IERC20 sp = IERC20($.points);
        if (returned != 0) sp.safeTransfer(returnTo, returned);
        if (toProgram != 0 && treasury_ != address(0)) sp.safeTransfer(treasury_, toProgram);
    }

    /// @dev Budget comes from the caller's SP; only a MANAGER_ROLE holder draws on unallocated
    /// SP (first), since that SP is nobody's in particular. What did not come from the funder's
    /// own SP is program money, given back first at closing.
    function _fund(
        PSPVaultStorage storage $,
        IPSPVault.Campaign storage c,
        bytes32 campaignId,
        uint256 amount,
        bool manager
    ) private {
        if (amount == 0) return;
        uint256 fromUnallocated = manager ? Math.min(_unallocated($), amount) : 0;
        Funding storage f = $.funding[campaignId];
        uint256 programShare = msg.sender == f.funder ? fromUnallocated : amount;
        if (programShare != 0) f.programFunded += programShare;
        c.budget += amount;
        c.available += amount;
        $.allocated += amount;
        emit IPSPVault.CampaignFunded(campaignId, msg.sender, amount, fromUnallocated);
        if (amount > fromUnallocated) {
            IERC20($.points).safeTransferFrom(msg.sender, address(this), amount - fromUnallocated);
        }
    }

    function _requireAtMost(uint256 length) private pure {
        if (length > MAX_INITIAL_ACCOUNTS) revert IPSPVault.TooManyAccounts(length, MAX_INITIAL_ACCOUNTS);
    }
}
