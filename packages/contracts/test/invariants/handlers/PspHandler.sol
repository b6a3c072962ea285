// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {PSPVault} from "../../../contracts/psp/PSPVault.sol";
import {Points} from "../../../contracts/points/Points.sol";
import {Accounts} from "../utils/ProgramSetup.sol";
import {vm} from "../utils/Cheats.sol";
import {PspGhost} from "./PspGhost.sol";

/// @dev Random PSPVault operations from every kind of caller, each checked against the model.
contract PspHandler is PspGhost {
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
        opNames = [
            "psp.createCampaign",
            "psp.fundCampaign",
            "psp.sendSpDirectly",
            "psp.mint",
            "psp.mintOverLimit",
            "psp.setMinter",
            "psp.settle",
            "psp.expire",
            "psp.transfer",
            "psp.setStatus",
            "psp.updateWhitelist",
            "psp.setCampaignAdmin",
            "psp.revokeCreator",
            "psp.mintBatch",
            "psp.settleBatch",
            "psp.expireBatch"
        ];
        // Start every run with two funded campaigns (one per kind of creator) and both
        // delegated minters configured on them, so that most steps have something to act on.
        booting = true;
        createCampaign(0, 0, 5e23 + 1);
        createCampaign(1, 4, 3e23 + 1);
        for (uint256 c = 0; c < 2; ++c) {
            setMinter(c, 0, 0, 1e23, 0);
            setMinter(c, 1, 0, 2e22, 0);
            for (uint256 u = 0; u < 4; ++u) mint(c, 4, u, 1e22 + 2);
        }
        booting = false;
    }

    function createCampaign(uint256 cSeed, uint256 callerSeed, uint256 budgetSeed) public {
        uint256 c = cSeed % CAMPAIGNS;
        // Mostly a new id; an existing one proves that duplicates revert.
        for (uint256 k = 0; k < CAMPAIGNS && (cSeed >> 8) % 8 != 0; ++k) {
            if (gCampaign[(c + k) % CAMPAIGNS].status == NONE) {
                c = (c + k) % CAMPAIGNS;
                break;
            }
        }
        address caller = _pick3(callerSeed, acc.admin, acc.campaignAdmin, acc.outsider);
        uint256 budget = budgetSeed % 5 == 0 ? 0 : _bound(budgetSeed, 1, 1e6 * 1e18);
        address[] memory listed = new address[](3);
        (listed[0], listed[1], listed[2]) = (acc.users[0], acc.users[1], acc.users[2]);
        bool predicted = caller != acc.outsider && gCampaign[c].status == NONE;
        bytes memory call = abi.encodeCall(psp.createCampaign, (campaignIds[c], budget, listed, listed, "invariant"));
        if (!_pspStep(CREATE, caller, call, predicted)) return;
        gCampaign[c].status = ACTIVE;
        (gCampaign[c].creator, gCampaign[c].funder) = (caller, caller);
        gAdmin[c][caller] = true;
        for (uint256 i = 0; i < 3; ++i) {
            gSettleListed[c][listed[i]] = true;
            gTransferListed[c][listed[i]] = true;
        }
        _ghostFund(c, caller, caller == acc.admin, budget);
    }

    function fundCampaign(uint256 cSeed, uint256 callerSeed, uint256 amountSeed) external {
        uint256 c = _campaign(cSeed);
        address caller = _pick3(callerSeed, acc.admin, acc.campaignAdmin, acc.outsider);
        uint256 amount = amountSeed % 10 == 0 ? 0 : _bound(amountSeed, 1, 1e6 * 1e18);
        uint8 status = gCampaign[c].status;
        // Only the program (MANAGER_ROLE) or the funder while an admin pays (docs/rules.md#campaigns).
        bool payer = caller == acc.admin || (caller == gCampaign[c].funder && gAdmin[c][caller]);
        bool predicted = status != NONE && status != CLOSED && payer && amount != 0;
        if (_pspStep(FUND, caller, abi.encodeCall(psp.fundCampaign, (campaignIds[c], amount)), predicted)) {
            _ghostFund(c, caller, caller == acc.admin, amount);
        }
    }

    /// @dev SP sent straight to the vault becomes unallocated: only MANAGER_ROLE funding uses it.
    function sendSpDirectly(uint256 amountSeed) external {
        uint256 amount = _bound(amountSeed, 1, 1e5 * 1e18);
        if (_step(SEND_SP, acc.admin, address(points), abi.encodeCall(points.transfer, (address(psp), amount)), true)) {
            ghostVaultSp += amount;
        }
    }

    /// @dev Callers of every issuance authority (docs/rules.md#issuance), and outsiders.
    function mint(uint256 cSeed, uint256 callerSeed, uint256 holderSeed, uint256 amountSeed) public {
        uint256 c = _campaign(cSeed);
        address caller = _mintCaller(callerSeed);
        address to = acc.users[holderSeed % 4];
        GhostCampaign memory g = gCampaign[c];
        GhostMinter memory m = gMinter[c][caller];
        bool privileged = caller == acc.issuer || _isCampaignAdmin(c, caller, acc.admin);
        uint256 cap = g.available;
        if (!privileged && m.limit > m.issued && m.limit - m.issued < cap) cap = m.limit - m.issued;
        // Mostly within budget and remaining limit; sometimes zero or one more than allowed.
        uint256 amount = _bound(amountSeed, 1, cap > 0 ? cap : 1);
        if (amountSeed % 16 == 0) amount = 0;
        else if (amountSeed % 16 == 1) amount = cap + 1;
        bool authorized = privileged || (m.active && m.issued + amount <= m.limit);
        bool predicted = g.status == ACTIVE && amount != 0 && authorized && amount <= g.available;
        if (_pspStep(MINT, caller, abi.encodeCall(psp.mint, (campaignIds[c], to, amount, "invariant")), predicted)) {
            _ghostIssue(c, to, amount);
            if (!privileged) _afterDelegatedMint(c, caller, amount);
        }
    }

    /// @dev Three rows (holders may repeat) from any issuance authority; the limit and the
    /// budget bind the rows' total (docs/rules.md#batch-forms). Sometimes a zero row, sometimes
    /// a total one more than allowed.
    function mintBatch(uint256 cSeed, uint256 callerSeed, uint256 holderSeed, uint256 amountSeed) external {
        uint256 c = _campaign(cSeed);
        address caller = _mintCaller(callerSeed);
        GhostCampaign memory g = gCampaign[c];
        GhostMinter memory m = gMinter[c][caller];
        bool privileged = caller == acc.issuer || _isCampaignAdmin(c, caller, acc.admin);
        uint256 cap = g.available;
        if (!privileged && m.limit > m.issued && m.limit - m.issued < cap) cap = m.limit - m.issued;
        address[] memory to = new address[](3);
        uint256[] memory amounts = new uint256[](3);
        uint256 total;
        for (uint256 i = 0; i < 3; ++i) {
            to[i] = acc.users[(holderSeed >> (8 * i)) % 4];
            amounts[i] = _bound(uint256(keccak256(abi.encode(amountSeed, i))), 1, cap / 3 > 0 ? cap / 3 : 1);
        }
        if (amountSeed % 16 == 0) amounts[1] = 0;
        else if (amountSeed % 16 == 1) amounts[2] = cap + 1 - amounts[0] - amounts[1];
        for (uint256 i = 0; i < 3; ++i) total += amounts[i];
        bool rowsOk = amounts[0] != 0 && amounts[1] != 0 && amounts[2] != 0;
        bool authorized = privileged || (m.active && m.issued + total <= m.limit);
        bool predicted = g.status == ACTIVE && rowsOk && authorized && total <= g.available;
        bytes memory call = abi.encodeCall(psp.mintBatch, (campaignIds[c], to, amounts, "invariant"));
        if (_pspStep(MINT_BATCH, caller, call, predicted)) {
            for (uint256 i = 0; i < 3; ++i) _ghostIssue(c, to[i], amounts[i]);
            if (!privileged) _afterDelegatedMint(c, caller, total);
        }
    }

    /// @dev Limits row 1: a delegated minter asking for more than its remaining limit must revert.
    function mintOverLimit(uint256 cSeed, uint256 minterSeed, uint256 extraSeed) external {
        uint256 c = _campaign(cSeed);
        address minter = acc.minters[minterSeed % 2];
        GhostMinter memory m = gMinter[c][minter];
        uint256 remaining = m.limit > m.issued ? m.limit - m.issued : 0;
        uint256 amount = remaining + _bound(extraSeed, 1, 1e18);
        _pspStep(
            MINT_OVER_LIMIT,
            minter,
            abi.encodeCall(psp.mint, (campaignIds[c], acc.users[extraSeed % 4], amount, "over limit")),
            false
        );
    }

    /// @dev Raise, lower (possibly below issued), deactivate, revoke, reactivate, or too large.
    function setMinter(uint256 cSeed, uint256 minterSeed, uint256 callerSeed, uint256 limitSeed, uint256 mode) public {
        uint256 c = _campaign(cSeed);
        address minter = acc.minters[minterSeed % 2];
        address caller = _pick3(callerSeed, acc.admin, acc.campaignAdmin, acc.outsider);
        GhostMinter memory m = gMinter[c][minter];
        (uint256 limit, bool active) = (m.limit, m.active);
        mode %= 10;
        if (mode < 5) (limit, active) = (m.issued + _bound(limitSeed, 1, 1e6 * 1e18), true);
        else if (mode == 5) limit = _bound(limitSeed, 0, m.issued);
        else if (mode == 6) active = false;
        else if (mode == 7) (limit, active) = (0, false);
        else if (mode == 8) active = true;
        else limit = MAX_LIMIT + 1 + (limitSeed % 1e18);
        bool predicted = gCampaign[c].status != NONE && _isCampaignAdmin(c, caller, acc.admin) && limit <= MAX_LIMIT;
        bytes memory call = abi.encodeCall(psp.setMinter, (campaignIds[c], minter, limit, active));
        if (_pspStep(SET_MINTER, caller, call, predicted)) {
            (gMinter[c][minter].limit, gMinter[c][minter].active) = (limit, active);
        }
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
    ) private view returns (Debit memory d) {
        uint256 c = _campaign(cSeed);
        d = Debit(c, _pick3(callerSeed, acc.admin, authorised, acc.outsider), _holder(c, holderSeed), 0, false);
        uint256 balance = gBalance[c][d.holder];
        d.amount = _debitAmount(balance, amountSeed);
        d.allowed = d.caller != acc.outsider && gCampaign[c].status != NONE && d.amount != 0 && d.amount <= balance;
    }

    function settle(
        uint256 cSeed,
        uint256 holderSeed,
        uint256 receiverSeed,
        uint256 amountSeed,
        uint256 callerSeed
    ) external {
        Debit memory d = _debit(cSeed, callerSeed, acc.settler, holderSeed, amountSeed);
        (uint256 c, address caller, address holder, uint256 amount) = (d.c, d.caller, d.holder, d.amount);
        address receiver = acc.users[receiverSeed % 4];
        bool predicted = d.allowed && gSettleListed[c][receiver];
        uint256 receiverSpBefore = points.balanceOf(receiver);
        bytes memory call = abi.encodeCall(psp.settle, (holder, receiver, amount, campaignIds[c], "invariant"));
        if (_pspStep(SETTLE, caller, call, predicted)) {
            _ghostSettle(c, holder, amount);
            if (points.balanceOf(receiver) != receiverSpBefore + amount) _violate("settle: receiver SP mismatch");
        }
    }

    function expire(uint256 cSeed, uint256 holderSeed, uint256 amountSeed, uint256 callerSeed) external {
        Debit memory d = _debit(cSeed, callerSeed, acc.settler, holderSeed, amountSeed);
        (uint256 c, address caller, address holder, uint256 amount) = (d.c, d.caller, d.holder, d.amount);
        bytes memory call = abi.encodeCall(psp.expire, (holder, amount, campaignIds[c], "invariant"));
        if (_pspStep(EXPIRE, caller, call, d.allowed)) _ghostExpire(c, holder, amount);
    }

    /// @dev Two rows of one caller and campaign; the holders and receivers may repeat, so the
    /// second row is allowed only within what the first left.
    function settleBatch(
        uint256 cSeed,
        uint256 holderSeed,
        uint256 receiverSeed,
        uint256 amountSeed,
        uint256 callerSeed
    ) external {
        (Debit memory d0, Debit memory d1, bool allowed) = _debitTwo(
            cSeed,
            callerSeed,
            acc.settler,
            holderSeed,
            amountSeed
        );
        uint256 c = d0.c;
        address[] memory holders = new address[](2);
        address[] memory receivers = new address[](2);
        uint256[] memory amounts = new uint256[](2);
        (holders[0], holders[1], amounts[0], amounts[1]) = (d0.holder, d1.holder, d0.amount, d1.amount);
        (receivers[0], receivers[1]) = (acc.users[receiverSeed % 4], acc.users[(receiverSeed >> 8) % 4]);
        bool predicted = allowed && gSettleListed[c][receivers[0]] && gSettleListed[c][receivers[1]];
        uint256 spBefore = points.balanceOf(receivers[0]) + points.balanceOf(receivers[1]);
        bytes memory call = abi.encodeCall(psp.settleBatch, (holders, receivers, amounts, campaignIds[c], "invariant"));
        if (_pspStep(SETTLE_BATCH, d0.caller, call, predicted)) {
            _ghostSettle(c, holders[0], amounts[0]);
            _ghostSettle(c, holders[1], amounts[1]);
            // A repeated receiver is counted twice on both sides.
            uint256 spAfter = points.balanceOf(receivers[0]) + points.balanceOf(receivers[1]);
            uint256 factor = receivers[0] == receivers[1] ? 2 : 1;
            if (spAfter != spBefore + factor * (amounts[0] + amounts[1])) _violate("settleBatch: receiver SP mismatch");
        }
    }

    function expireBatch(uint256 cSeed, uint256 holderSeed, uint256 amountSeed, uint256 callerSeed) external {
        (Debit memory d0, Debit memory d1, bool allowed) = _debitTwo(
            cSeed,
            callerSeed,
            acc.settler,
            holderSeed,
            amountSeed
        );
        address[] memory holders = new address[](2);
        uint256[] memory amounts = new uint256[](2);
        (holders[0], holders[1], amounts[0], amounts[1]) = (d0.holder, d1.holder, d0.amount, d1.amount);
        bytes memory call = abi.encodeCall(psp.expireBatch, (holders, amounts, campaignIds[d0.c], "invariant"));
        if (_pspStep(EXPIRE_BATCH, d0.caller, call, allowed)) {
            _ghostExpire(d0.c, holders[0], amounts[0]);
            _ghostExpire(d0.c, holders[1], amounts[1]);
        }
    }

    /// @dev Two debits of one caller and campaign for a batch; allowed when each is, and, for a
    /// repeated holder, when both together fit its balance.
    function _debitTwo(
        uint256 cSeed,
        uint256 callerSeed,
        address authorised,
        uint256 holderSeed,
        uint256 amountSeed
    ) private view returns (Debit memory d0, Debit memory d1, bool allowed) {
        d0 = _debit(cSeed, callerSeed, authorised, holderSeed, amountSeed);
        d1 = _debit(cSeed, callerSeed, authorised, holderSeed >> 16, uint256(keccak256(abi.encode(amountSeed))));
        allowed = d0.allowed && d1.allowed;
        if (d0.holder == d1.holder) allowed = allowed && d0.amount + d1.amount <= gBalance[d0.c][d0.holder];
    }

    function transfer(
        uint256 cSeed,
        uint256 fromSeed,
        uint256 toSeed,
        uint256 amountSeed,
        uint256 callerSeed
    ) external {
        Debit memory d = _debit(cSeed, callerSeed, acc.mover, fromSeed, amountSeed);
        (uint256 c, address caller, address from, uint256 amount) = (d.c, d.caller, d.holder, d.amount);
        address to = acc.users[toSeed % 4];
        bool predicted = d.allowed && gTransferListed[c][to];
        if (_pspStep(TRANSFER, caller, abi.encodeCall(psp.transfer, (campaignIds[c], from, to, amount)), predicted)) {
            gBalance[c][from] -= amount;
            gBalance[c][to] += amount;
        }
    }

    /// @dev Pause, resume or (rarely, it is terminal) close; closing returns the budget left.
    function setStatus(uint256 cSeed, uint256 action, uint256 callerSeed) external {
        uint256 c = _campaign(cSeed);
        address caller = _pick3(callerSeed, acc.admin, acc.campaignAdmin, acc.outsider);
        uint8 status = gCampaign[c].status;
        bool allowed = status != NONE && _isCampaignAdmin(c, caller, acc.admin);
        bytes32 id = campaignIds[c];
        // Close one time in sixteen (it is terminal), the wrong move one time in sixteen (it
        // must revert), otherwise pause an active campaign or resume a paused one.
        action %= 16;
        uint256 kind =
            action == 15
                ? 2
                : (action == 14) != (status == PAUSED)
                    ? 1
                    : 0;
        if (kind == 0) {
            if (_pspStep(SET_STATUS, caller, abi.encodeCall(psp.pauseCampaign, (id)), allowed && status == ACTIVE)) {
                gCampaign[c].status = PAUSED;
            }
        } else if (kind == 1) {
            if (_pspStep(SET_STATUS, caller, abi.encodeCall(psp.resumeCampaign, (id)), allowed && status == PAUSED)) {
                gCampaign[c].status = ACTIVE;
            }
        } else {
            _close(c, caller, callerSeed, allowed && status != CLOSED);
        }
    }

    /// @dev Closing names the funder; one time in four the caller names itself instead (a
    /// campaign admin pocketing the remainder), which must revert unless it is the funder.
    /// Then: the funder got exactly its share, never more than it paid; the caller and every
    /// user got nothing.
    function _close(uint256 c, address caller, uint256 seed, bool allowed) private {
        address funder = gCampaign[c].funder;
        address returnTo = (seed >> 8) % 4 == 0 ? caller : funder;
        uint256 funderBefore = points.balanceOf(funder);
        uint256 callerBefore = points.balanceOf(caller);
        bytes memory call = abi.encodeCall(psp.closeCampaign, (campaignIds[c], returnTo));
        if (!_pspStep(SET_STATUS, caller, call, allowed && returnTo == funder)) return;
        uint256 returned = _ghostClose(c);
        if (points.balanceOf(funder) != funderBefore + returned) _violate("close: funder SP mismatch");
        if (caller != funder && points.balanceOf(caller) != callerBefore) _violate("close: the closer was paid");
        if (gCampaign[c].refunded > gCampaign[c].funderPaid) _violate("close: funder got more than it paid");
    }

    function updateWhitelist(
        uint256 cSeed,
        uint256 accountSeed,
        bool settlement,
        bool allowed,
        uint256 callerSeed
    ) external {
        uint256 c = _campaign(cSeed);
        address caller = _pick3(callerSeed, acc.admin, acc.campaignAdmin, acc.outsider);
        address account = acc.users[accountSeed % 4];
        bool predicted = gCampaign[c].status != NONE && _isCampaignAdmin(c, caller, acc.admin);
        bytes memory call =
            settlement
                ? abi.encodeCall(psp.updateSettlementWhitelist, (campaignIds[c], account, allowed))
                : abi.encodeCall(psp.updateTransferWhitelist, (campaignIds[c], account, allowed));
        if (!_pspStep(WHITELIST, caller, call, predicted)) return;
        if (settlement) gSettleListed[c][account] = allowed;
        else gTransferListed[c][account] = allowed;
    }

    /// @dev Grants or removes campaign admin status of the CAMPAIGN_ADMIN_ROLE account.
    function setCampaignAdmin(uint256 cSeed, bool allowed, uint256 callerSeed) external {
        uint256 c = _campaign(cSeed);
        address caller = _pick3(callerSeed, acc.admin, acc.campaignAdmin, acc.outsider);
        bool predicted = gCampaign[c].status != NONE && (caller == acc.admin || caller == gCampaign[c].creator);
        bytes memory call = abi.encodeCall(psp.setCampaignAdmin, (campaignIds[c], acc.campaignAdmin, allowed));
        if (_pspStep(SET_ADMIN, caller, call, predicted)) gAdmin[c][acc.campaignAdmin] = allowed;
    }

    /// @dev MANAGER_ROLE revokes the creator (the outsider one time in eight, which must revert).
    function revokeCreator(uint256 cSeed, uint256 callerSeed) external {
        uint256 c = _campaign(cSeed);
        address caller = callerSeed % 8 == 0 ? acc.outsider : acc.admin;
        address creator = gCampaign[c].creator;
        bool predicted = gCampaign[c].status != NONE && caller == acc.admin && creator != address(0);
        if (!_pspStep(REVOKE_CREATOR, caller, abi.encodeCall(psp.revokeCreator, (campaignIds[c])), predicted)) return;
        gCampaign[c].creator = address(0);
        gAdmin[c][creator] = false;
    }

    function _pspStep(uint256 op, address caller, bytes memory call, bool predicted) private returns (bool) {
        return _step(op, caller, address(psp), call, predicted);
    }

    /// @dev Invariant 2, checked right after the mint: issued grew by exactly `amount` and is
    /// within the limit.
    function _afterDelegatedMint(uint256 c, address minter, uint256 amount) private {
        (uint256 limit, uint256 issued, ) = psp.getMinterConfig(campaignIds[c], minter);
        if (issued > limit) _violate("delegated mint: issued above limit");
        if (issued != gMinter[c][minter].issued + amount) _violate("delegated mint: issued did not grow by amount");
        gMinter[c][minter].issued = issued;
    }

    /// @dev Delegated minters half of the time, else the manager, the issuing admin, the
    /// CAMPAIGN_ADMIN_ROLE account (a campaign admin only where it is one) or an outsider.
    function _mintCaller(uint256 seed) private view returns (address) {
        seed %= 8;
        if (seed < 4) return acc.minters[seed % 2];
        if (seed == 4) return acc.admin;
        if (seed == 5) return acc.issuer;
        if (seed == 6) return acc.campaignAdmin;
        return acc.outsider;
    }

    /// @dev Seven times in eight an existing campaign (an active one if any), else any id.
    function _campaign(uint256 seed) private view returns (uint256 c) {
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
    function _holder(uint256 c, uint256 seed) private view returns (address) {
        uint256 start = seed % 4;
        if ((seed >> 8) % 8 == 0) return acc.users[start];
        for (uint256 k = 0; k < 4; ++k) {
            address candidate = acc.users[(start + k) % 4];
            if (gBalance[c][candidate] != 0) return candidate;
        }
        return acc.users[start];
    }

    /// @dev Mostly a part of `balance`; sometimes zero or one more than the balance.
    function _debitAmount(uint256 balance, uint256 seed) private pure returns (uint256) {
        if (seed % 20 == 0) return 0;
        if (seed % 20 == 1 || balance == 0) return balance + 1 + (seed % 1e18);
        return _bound(seed, 1, balance);
    }

    /// @dev The first two callers are the authorised ones, chosen 7 times in 8.
    function _pick3(uint256 seed, address a, address b, address other) private pure returns (address) {
        seed %= 8;
        return
            seed < 4
                ? a
                : seed < 7
                    ? b
                    : other;
    }
}
