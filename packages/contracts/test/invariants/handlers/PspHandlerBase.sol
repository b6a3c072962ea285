// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {PSPVault} from "../../../contracts/psp/PSPVault.sol";
import {Points} from "../../../contracts/points/Points.sol";
import {Accounts} from "../utils/ProgramSetup.sol";
import {PspGhost} from "./PspGhost.sol";

/// @dev What the PSPVault handlers share: the operation ids, the contracts and accounts, and
/// how a step picks its campaign, caller, holder and amount and checks its outcome.
abstract contract PspHandlerBase is PspGhost {
    uint256 internal constant CREATE = 0;
    uint256 internal constant FUND = 1;
    uint256 internal constant SEND_SP = 2;
    uint256 internal constant MINT = 3;
    uint256 internal constant MINT_OVER_LIMIT = 4;
    uint256 internal constant SET_MINTER = 5;
    uint256 internal constant SETTLE = 6;
    uint256 internal constant EXPIRE = 7;
    uint256 internal constant TRANSFER = 8;
    uint256 internal constant SET_STATUS = 9;
    uint256 internal constant WHITELIST = 10;
    uint256 internal constant SET_ADMIN = 11;
    uint256 internal constant REVOKE_CREATOR = 12;
    uint256 internal constant MINT_BATCH = 13;
    uint256 internal constant SETTLE_BATCH = 14;
    uint256 internal constant EXPIRE_BATCH = 15;
    uint256 internal constant MAX_LIMIT = type(uint120).max;

    /// @dev What settle, expire and transfer debit, and whether the model allows it.
    struct Debit {
        uint256 c;
        address caller;
        address holder;
        uint256 amount;
        bool allowed;
    }

    PSPVault internal immutable psp;
    Points internal immutable points;
    Accounts internal acc;

    constructor(PSPVault psp_, Points points_, Accounts memory accounts) {
        (psp, points, acc) = (psp_, points_, accounts);
    }

    /// @dev The start of settle, expire and transfer: a campaign, a caller (the manager,
    /// `authorised` or the outsider), a holder and an amount to debit, and whether the debit is
    /// allowed: any existing campaign, not the outsider, a non-zero amount within the balance.
    function _debit(
        uint256 cSeed,
        uint256 callerSeed,
        address authorised,
        uint256 holderSeed,
        uint256 amountSeed
    ) internal view returns (Debit memory d) {
        uint256 c = _campaign(cSeed);
        d = Debit(c, _pick3(callerSeed, acc.admin, authorised, acc.outsider), _holder(c, holderSeed), 0, false);
        uint256 balance = gBalance[c][d.holder];
        d.amount = _debitAmount(balance, amountSeed);
        d.allowed = d.caller != acc.outsider && gCampaign[c].status != NONE && d.amount != 0 && d.amount <= balance;
    }

    function _pspStep(uint256 op, address caller, bytes memory call, bool predicted) internal returns (bool) {
        return _step(op, caller, address(psp), call, predicted);
    }

    /// @dev Invariant 2, checked right after the mint: issued grew by exactly `amount` and is
    /// within the limit.
    function _afterDelegatedMint(uint256 c, address minter, uint256 amount) internal {
        (uint256 limit, uint256 issued, ) = psp.getMinterConfig(campaignIds[c], minter);
        if (issued > limit) _violate("delegated mint: issued above limit");
        if (issued != gMinter[c][minter].issued + amount) _violate("delegated mint: issued did not grow by amount");
        gMinter[c][minter].issued = issued;
    }

    /// @dev Delegated minters half of the time, else the manager, the issuing admin, the
    /// CAMPAIGN_ADMIN_ROLE account (a campaign admin only where it is one) or an outsider.
    function _mintCaller(uint256 seed) internal view returns (address) {
        seed %= 8;
        if (seed < 4) return acc.minters[seed % 2];
        if (seed == 4) return acc.admin;
        if (seed == 5) return acc.issuer;
        if (seed == 6) return acc.campaignAdmin;
        return acc.outsider;
    }

    /// @dev Seven times in eight an existing campaign (an active one if any), else any id.
    function _campaign(uint256 seed) internal view returns (uint256 c) {
        c = seed % CAMPAIGNS;
        if ((seed >> 8) % 8 == 0) return c;
        uint256 fallbackId = type(uint256).max;
        for (uint256 k = 0; k < CAMPAIGNS; ++k) {
            uint256 candidate = (c + k) % CAMPAIGNS;
            if (gCampaign[candidate].status == ACTIVE) return candidate;
            if (gCampaign[candidate].status != NONE && fallbackId == type(uint256).max) fallbackId = candidate;
        }
        return fallbackId == type(uint256).max ? c : fallbackId;
    }

    /// @dev Seven times in eight a holder with pSP in the campaign (if any), else any user.
    function _holder(uint256 c, uint256 seed) internal view returns (address) {
        uint256 start = seed % 4;
        if ((seed >> 8) % 8 == 0) return acc.users[start];
        for (uint256 k = 0; k < 4; ++k) {
            address candidate = acc.users[(start + k) % 4];
            if (gBalance[c][candidate] != 0) return candidate;
        }
        return acc.users[start];
    }

    /// @dev Mostly a part of `balance`; sometimes zero or one more than the balance.
    function _debitAmount(uint256 balance, uint256 seed) internal pure returns (uint256) {
        if (seed % 20 == 0) return 0;
        if (seed % 20 == 1 || balance == 0) return balance + 1 + (seed % 1e18);
        return _bound(seed, 1, balance);
    }

    /// @dev The first two callers are the authorised ones, chosen 7 times in 8.
    function _pick3(uint256 seed, address a, address b, address other) internal pure returns (address) {
        seed %= 8;
        return
            seed < 4
                ? a
                : seed < 7
                    ? b
                    : other;
    }
}
