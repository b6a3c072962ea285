// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {HandlerBase} from "./HandlerBase.sol";

/// @dev The ghost model of the PSPVault: what every campaign, pSP balance and minter
/// configuration must be after the operations that succeeded, kept independently of the vault.
abstract contract PspGhost is HandlerBase {
    uint8 internal constant NONE = 0;
    uint8 internal constant ACTIVE = 1;
    uint8 internal constant PAUSED = 2;
    uint8 internal constant CLOSED = 3;
    uint256 public constant CAMPAIGNS = 4;

    struct GhostCampaign {
        uint8 status;
        address creator;
        address funder;
        uint256 budget;
        uint256 available;
        uint256 outstanding;
        uint256 minted;
        uint256 settled;
        uint256 expired;
        /// SP the funder paid from its own wallet, program money in the budget, SP the funder got back.
        uint256 funderPaid;
        uint256 programFunded;
        uint256 refunded;
    }

    struct GhostMinter {
        uint256 limit;
        uint256 issued;
        bool active;
    }

    bytes32[CAMPAIGNS] public campaignIds;
    GhostCampaign[CAMPAIGNS] internal gCampaign;
    mapping(uint256 c => mapping(address holder => uint256)) internal gBalance;
    mapping(uint256 c => mapping(address minter => GhostMinter)) internal gMinter;
    mapping(uint256 c => mapping(address account => bool)) internal gAdmin;
    mapping(uint256 c => mapping(address account => bool)) internal gSettleListed;
    mapping(uint256 c => mapping(address account => bool)) internal gTransferListed;
    /// @notice SP the vault must hold, and the part of it allocated to campaigns.
    uint256 public ghostVaultSp;
    uint256 public ghostAllocated;

    constructor() {
        for (uint256 c = 0; c < CAMPAIGNS; ++c) campaignIds[c] = keccak256(abi.encode("campaign", c));
    }

    function ghostCampaign(uint256 c) external view returns (GhostCampaign memory) {
        return gCampaign[c];
    }

    function ghostBalance(uint256 c, address holder) external view returns (uint256) {
        return gBalance[c][holder];
    }

    function ghostMinter(uint256 c, address minter) external view returns (GhostMinter memory) {
        return gMinter[c][minter];
    }

    function _ghostUnallocated() internal view returns (uint256) {
        return ghostVaultSp - ghostAllocated;
    }

    /// @dev Only a manager draws on unallocated SP (first); the rest is pulled from the caller.
    /// What the funder did not pay itself is program money (docs/rules.md#campaigns).
    function _ghostFund(uint256 c, address caller, bool manager, uint256 amount) internal {
        uint256 unallocated = _ghostUnallocated();
        uint256 fromUnallocated =
            !manager
                ? 0
                : amount < unallocated
                    ? amount
                    : unallocated;
        uint256 pulled = amount - fromUnallocated;
        if (caller == gCampaign[c].funder) {
            gCampaign[c].funderPaid += pulled;
            gCampaign[c].programFunded += fromUnallocated;
        } else {
            gCampaign[c].programFunded += amount;
        }
        gCampaign[c].budget += amount;
        gCampaign[c].available += amount;
        ghostAllocated += amount;
        ghostVaultSp += pulled;
    }

    function _ghostIssue(uint256 c, address to, uint256 amount) internal {
        gCampaign[c].available -= amount;
        gCampaign[c].outstanding += amount;
        gCampaign[c].minted += amount;
        gBalance[c][to] += amount;
    }

    function _ghostSettle(uint256 c, address holder, uint256 amount) internal {
        gBalance[c][holder] -= amount;
        gCampaign[c].outstanding -= amount;
        gCampaign[c].settled += amount;
        ghostAllocated -= amount;
        ghostVaultSp -= amount;
    }

    function _ghostExpire(uint256 c, address holder, uint256 amount) internal {
        gBalance[c][holder] -= amount;
        gCampaign[c].outstanding -= amount;
        gCampaign[c].expired += amount;
        // A closed campaign cannot issue again: the SP becomes unallocated.
        if (gCampaign[c].status == CLOSED) ghostAllocated -= amount;
        else gCampaign[c].available += amount;
    }

    /// @dev Program money back first (unallocated: the suites set no treasury), the rest to the
    /// funder. Returns the funder's share.
    function _ghostClose(uint256 c) internal returns (uint256 returned) {
        uint256 remaining = gCampaign[c].available;
        uint256 program = gCampaign[c].programFunded;
        returned = remaining > program ? remaining - program : 0;
        gCampaign[c].available = 0;
        gCampaign[c].status = CLOSED;
        gCampaign[c].refunded += returned;
        ghostAllocated -= remaining;
        ghostVaultSp -= returned;
    }

    /// @dev MANAGER_ROLE or an admin of the campaign.
    function _isCampaignAdmin(uint256 c, address caller, address manager) internal view returns (bool) {
        return caller == manager || gAdmin[c][caller];
    }
}
