// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IPSPVault} from "../interfaces/IPSPVault.sol";
import {PSPVaultState} from "./PSPVaultState.sol";

/// @title PSPVaultViews
/// @notice The PSPVault's read functions (see {IPSPVault}), over {PSPVaultState}'s storage.
abstract contract PSPVaultViews is PSPVaultState, IPSPVault {
    /// @inheritdoc IPSPVault
    function getCampaign(bytes32 campaignId) external view returns (Campaign memory) {
        return _campaign(_getStorage(), campaignId);
    }

    /// @inheritdoc IPSPVault
    function getMinterConfig(
        bytes32 campaignId,
        address minter
    ) external view returns (uint256 limit, uint256 issued, bool active) {
        Minter memory m = _getStorage().minters[campaignId][minter];
        return (m.limit, m.issued, m.active);
    }

    /// @inheritdoc IPSPVault
    function balanceOf(bytes32 campaignId, address holder) external view returns (uint256) {
        return _getStorage().balances[campaignId][holder];
    }

    /// @inheritdoc IPSPVault
    function isCampaignAdmin(bytes32 campaignId, address account) external view returns (bool) {
        return _getStorage().campaignAdmins[campaignId][account];
    }

    /// @inheritdoc IPSPVault
    function isSettlementWhitelisted(bytes32 campaignId, address account) external view returns (bool) {
        return _getStorage().settlementWhitelist[campaignId][account];
    }

    /// @inheritdoc IPSPVault
    function isTransferWhitelisted(bytes32 campaignId, address account) external view returns (bool) {
        return _getStorage().transferWhitelist[campaignId][account];
    }

    /// @inheritdoc IPSPVault
    function fundingOf(bytes32 campaignId) external view returns (address funder, uint256 programFunded) {
        PSPVaultStorage storage $ = _getStorage();
        _campaign($, campaignId);
        Funding storage f = $.funding[campaignId];
        return (f.funder, f.programFunded);
    }

    /// @inheritdoc IPSPVault
    function closeRecipient(bytes32 campaignId) external view returns (address) {
        PSPVaultStorage storage $ = _getStorage();
        _campaign($, campaignId);
        address funder = $.funding[campaignId].funder;
        return funder == address(0) ? $.treasury : funder;
    }

    /// @inheritdoc IPSPVault
    function treasury() external view returns (address) {
        return _getStorage().treasury;
    }

    /// @inheritdoc IPSPVault
    function unallocated() external view returns (uint256) {
        return _unallocated(_getStorage());
    }

    /// @inheritdoc IPSPVault
    function totalAllocated() external view returns (uint256) {
        return _getStorage().allocated;
    }

    /// @inheritdoc IPSPVault
    function points() external view returns (address) {
        return _getStorage().points;
    }
}
