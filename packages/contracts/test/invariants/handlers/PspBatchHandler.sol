// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {PspHandlerBase} from "./PspHandlerBase.sol";

/// @dev The batch steps of the PSPVault handler (mintBatch, settleBatch, expireBatch), each
/// checked against the same model as the single forms (docs/rules.md#batch-forms).
abstract contract PspBatchHandler is PspHandlerBase {
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
        // A zero row, or one over the cap. With a cap under two the first rows already pass it
        // (the subtraction would underflow and lose the step uncounted).
        if (amountSeed % 16 == 0) {
            amounts[1] = 0;
        } else if (amountSeed % 16 == 1 && cap + 1 > amounts[0] + amounts[1]) {
            amounts[2] = cap + 1 - amounts[0] - amounts[1];
        }
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
    ) internal view returns (Debit memory d0, Debit memory d1, bool allowed) {
        d0 = _debit(cSeed, callerSeed, authorised, holderSeed, amountSeed);
        d1 = _debit(cSeed, callerSeed, authorised, holderSeed >> 16, uint256(keccak256(abi.encode(amountSeed))));
        allowed = d0.allowed && d1.allowed;
        if (d0.holder == d1.holder) allowed = allowed && d0.amount + d1.amount <= gBalance[d0.c][d0.holder];
    }
}
