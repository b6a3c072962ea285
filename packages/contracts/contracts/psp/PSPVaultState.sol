// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IPSPVault} from "../interfaces/IPSPVault.sol";

/// @title PSPVaultState
/// @notice The PSPVault's storage (one ERC-7201 namespace) and the checks both the vault and
/// its delegated module {PSPVaultCampaigns} run. Holds no state variable of its own: the
/// module runs in the vault proxy's context and reads the same namespace.
abstract contract PSPVaultState {
    /// @notice Most accounts in each initial allowlist of {IPSPVault.createCampaign}.
    uint256 public constant MAX_INITIAL_ACCOUNTS = 256;

    /// @dev A delegated minter's configuration, packed into one slot.
    struct Minter {
        uint120 limit;
        uint120 issued;
        bool active;
    }

    /// @dev Who pays for a campaign (docs/rules.md#campaigns): `funder` put in budget - programFunded
    /// from its own SP; `programFunded` came from unallocated SP or from a MANAGER_ROLE holder
    /// that is not the funder.
    struct Funding {
        address funder;
        uint256 programFunded;
    }

    /// @custom:storage-location erc7201:points.storage.PSPVault
    struct PSPVaultStorage {
        address points;
        uint256 allocated;
        mapping(bytes32 campaignId => IPSPVault.Campaign) campaigns;
        mapping(bytes32 campaignId => mapping(address holder => uint256)) balances;
        mapping(bytes32 campaignId => mapping(address account => bool)) campaignAdmins;
        mapping(bytes32 campaignId => mapping(address account => bool)) settlementWhitelist;
        mapping(bytes32 campaignId => mapping(address account => bool)) transferWhitelist;
        mapping(bytes32 campaignId => mapping(address minter => Minter)) minters;
        // Appended in 0.2: campaign funding and the treasury (docs/deployment.md#upgrades).
        address treasury;
        mapping(bytes32 campaignId => Funding) funding;
    }

    // keccak256(abi.encode(uint256(keccak256("points.storage.PSPVault")) - 1)) & ~bytes32(uint256(0xff))
    bytes32 private constant PSP_VAULT_STORAGE = 0x787b24183171dfe6cb90f8d929b3507809e83c584969efb5ec85efeacff93f00;

    function _getStorage() internal pure returns (PSPVaultStorage storage $) {
        assembly {
            $.slot := PSP_VAULT_STORAGE
        }
    }

    function _campaign(
        PSPVaultStorage storage $,
        bytes32 campaignId
    ) internal view returns (IPSPVault.Campaign storage c) {
        c = $.campaigns[campaignId];
        if (c.status == IPSPVault.CampaignStatus.None) revert IPSPVault.CampaignNotFound(campaignId);
    }

    /// @dev `manager`: whether the caller holds MANAGER_ROLE (the vault knows its roles).
    function _requireCampaignAdmin(PSPVaultStorage storage $, bytes32 campaignId, bool manager) internal view {
        if (!manager && !$.campaignAdmins[campaignId][msg.sender]) {
            revert IPSPVault.NotCampaignAdmin(campaignId, msg.sender);
        }
    }

    /// @dev SP the vault holds beyond what campaigns have been given.
    function _unallocated(PSPVaultStorage storage $) internal view returns (uint256) {
        return IERC20($.points).balanceOf(address(this)) - $.allocated;
    }

    /// @dev `settlement` picks the campaign's settlement allowlist, else its transfer allowlist.
    function _updateList(
        PSPVaultStorage storage $,
        bool settlement,
        bytes32 campaignId,
        address account,
        bool allowed
    ) internal {
        if (settlement) {
            if (_setFlag($.settlementWhitelist, campaignId, account, allowed)) {
                emit IPSPVault.SettlementWhitelistUpdated(campaignId, account, allowed);
            }
        } else if (_setFlag($.transferWhitelist, campaignId, account, allowed)) {
            emit IPSPVault.TransferWhitelistUpdated(campaignId, account, allowed);
        }
    }

    /// @dev Idempotent; returns whether anything changed (events only report changes).
    function _setFlag(
        mapping(bytes32 => mapping(address => bool)) storage flags,
        bytes32 campaignId,
        address account,
        bool value
    ) internal returns (bool changed) {
        if (account == address(0)) revert IPSPVault.ZeroAddress();
        changed = flags[campaignId][account] != value;
        flags[campaignId][account] = value;
    }
}
