// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {PSPVault} from "../../../contracts/psp/PSPVault.sol";
import {Points} from "../../../contracts/points/Points.sol";
import {Accounts} from "../utils/ProgramSetup.sol";
import {PspBatchHandler} from "./PspBatchHandler.sol";
import {PspHandlerBase} from "./PspHandlerBase.sol";

/// @dev Random PSPVault operations from every kind of caller, each checked against the model;
/// the batch steps are in {PspBatchHandler}, the shared picking and checking in {PspHandlerBase}.
contract PspHandler is PspBatchHandler {
    constructor(PSPVault psp_, Points points_, Accounts memory accounts) PspHandlerBase(psp_, points_, accounts) {
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
}
