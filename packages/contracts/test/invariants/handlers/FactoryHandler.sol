// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {Program, Accounts} from "../utils/ProgramSetup.sol";
import {vm} from "../utils/Cheats.sol";
import {HandlerBase} from "./HandlerBase.sol";

/// @dev Random Factory operations: mints of dust and large amounts in both assets, the whole
/// redemption lifecycle, fee changes, forced basket mode, oracle price moves and time.
contract FactoryHandler is HandlerBase {
    uint256 internal constant MINT = 0;
    uint256 internal constant REQUEST = 1;
    uint256 internal constant CANCEL = 2;
    uint256 internal constant FINALIZE = 3;
    uint256 internal constant REJECT = 4;
    uint256 internal constant SET_FEES = 5;
    uint256 internal constant FORCE_BASKET = 6;
    uint256 internal constant MOVE_PRICE = 7;
    uint256 internal constant WARP = 8;

    struct Request {
        uint256 id;
        address requester;
        uint256 amount;
        bool pending;
    }

    Program internal p;
    Accounts internal acc;
    Request[] internal requests;
    /// @notice SP the Factory must hold in escrow: the sum of pending request amounts.
    uint256 public ghostEscrow;
    uint256 internal pendingCount;

    constructor(Program memory program, Accounts memory accounts) {
        (p, acc) = (program, accounts);
        opNames = [
            "factory.mint",
            "factory.requestRedeem",
            "factory.cancelRedeem",
            "factory.finalizeRedeem",
            "factory.rejectRedeem",
            "factory.setFees",
            "factory.setBasketModeForced",
            "oracle.movePrice",
            "time.warp"
        ];
    }

    /// @dev One time in four a dust amount (1 to 1,000 base units), otherwise up to 1e6 tokens.
    function mint(uint256 actorSeed, uint256 assetSeed, uint256 amountSeed) external {
        address caller = actorSeed % 10 == 9 ? acc.outsider : acc.users[actorSeed % 4];
        uint256 i = assetSeed % 2;
        uint256 unit = 10 ** p.assets[i].decimals();
        uint256 amount =
            amountSeed % 4 == 0
                ? _bound(amountSeed, 1, 1_000)
                : _bound(amountSeed, 1, 1e6) * unit + ((amountSeed >> 128) % unit);
        p.assets[i].mint(caller, amount);
        _countedStep(
            MINT,
            caller,
            address(p.factory),
            abi.encodeCall(p.factory.mint, (address(p.assets[i]), amount, caller))
        );
    }

    /// @dev A share of the caller's SP, usually expecting the current basket mode.
    function requestRedeem(uint256 actorSeed, uint256 assetSeed, uint256 shareSeed, uint256 modeSeed) public {
        address caller = acc.users[actorSeed % 4];
        uint256 balance = p.points.balanceOf(caller);
        uint256 amount = shareSeed % 20 == 0 ? 0 : Math.mulDiv(balance, _bound(shareSeed, 1, 100), 100);
        bool expected = p.factory.isBasketMode() != (modeSeed % 10 == 0);
        address asset = address(p.assets[assetSeed % 2]);
        bytes memory call = abi.encodeCall(p.factory.requestRedeem, (asset, caller, amount, expected));
        (bool ok, bytes memory ret) = _as(caller, address(p.factory), call);
        _counted(REQUEST, ok);
        if (!ok) return;
        requests.push(Request(abi.decode(ret, (uint256)), caller, amount, true));
        ghostEscrow += amount;
        ++pendingCount;
    }

    /// With nothing pending, seven times in eight a settling step makes a request instead.
    modifier orRequestFirst(uint256 indexSeed, uint256 callerSeed) {
        if (pendingCount == 0 && callerSeed % 8 != 0) requestRedeem(indexSeed, callerSeed, indexSeed >> 8, 1);
        else _;
    }

    function cancelRedeem(uint256 indexSeed, uint256 callerSeed) external orRequestFirst(indexSeed, callerSeed) {
        (Request storage r, bool found) = _request(indexSeed);
        address caller = callerSeed % 8 == 0 ? acc.outsider : r.requester;
        _closeRequest(CANCEL, r, caller, found && caller == r.requester, p.factory.cancelRedeem.selector);
    }

    /// @dev By the executor, or by the requester (after the delay, or too early).
    function finalizeRedeem(uint256 indexSeed, uint256 callerSeed) external orRequestFirst(indexSeed, callerSeed) {
        (Request storage r, bool found) = _request(indexSeed);
        address caller = callerSeed % 4 == 0 ? r.requester : acc.executor;
        uint256 supplyBefore = p.points.totalSupply();
        // The fee is the one in force when the request was made.
        uint256 feeBps = found ? p.factory.getRedeemRequest(r.id).redeemFeeBps : 0;
        uint256 fee = Math.mulDiv(r.amount, feeBps, 10_000, Math.Rounding.Ceil);
        if (_countedStep(FINALIZE, caller, address(p.factory), abi.encodeCall(p.factory.finalizeRedeem, (r.id)))) {
            _settled(r);
            // Only the net amount is burned; the fee stays in supply, held by the fee receiver.
            if (supplyBefore - p.points.totalSupply() != r.amount - fee) _violate("finalize: burned != net");
        }
    }

    function rejectRedeem(uint256 indexSeed, uint256 callerSeed) external orRequestFirst(indexSeed, callerSeed) {
        (Request storage r, bool found) = _request(indexSeed);
        address caller = callerSeed % 8 == 0 ? acc.outsider : acc.executor;
        _closeRequest(REJECT, r, caller, found && caller == acc.executor, p.factory.rejectRedeem.selector);
    }

    /// @dev Cancel or reject (`selector`) as `caller`: it must succeed when `allowed` and pending.
    function _closeRequest(uint256 op, Request storage r, address caller, bool allowed, bytes4 selector) private {
        bytes memory call = abi.encodeWithSelector(selector, r.id);
        if (_step(op, caller, address(p.factory), call, allowed && r.pending)) _settled(r);
    }

    /// @dev Fees up to the 10% maximum; one time in ten above it (must revert).
    function setFees(uint256 mintSeed, uint256 redeemSeed, uint256 tooHighSeed) external {
        uint16 mintFee = uint16(_bound(mintSeed, 0, 1_000));
        uint16 redeemFee = uint16(_bound(redeemSeed, 0, 1_000));
        bool tooHigh = tooHighSeed % 10 == 0;
        if (tooHigh) mintFee = uint16(_bound(mintSeed, 1_001, 10_000));
        _step(
            SET_FEES,
            acc.admin,
            address(p.factory),
            abi.encodeCall(p.factory.setFees, (mintFee, redeemFee)),
            !tooHigh
        );
    }

    /// @dev Forced on one time in three, so that the peg decides most of the time.
    function setBasketModeForced(uint256 seed) external {
        bytes memory call = abi.encodeCall(p.factory.setBasketModeForced, (seed % 3 == 0));
        _step(FORCE_BASKET, acc.admin, address(p.factory), call, true);
    }

    /// @dev Without an Oracle, time passes instead. With one: a fresh price inside the
    /// 0.98..1.02 band two times in three, outside it (0.90..1.10) otherwise, and sometimes a
    /// stale one.
    function movePrice(uint256 assetSeed, uint256 priceSeed) external {
        if (address(p.oracle) == address(0)) return warp(priceSeed);
        uint256 price = priceSeed % 3 == 0 ? _bound(priceSeed, 0.9e8, 1.1e8) : _bound(priceSeed, 0.98e8, 1.02e8);
        uint256 updatedAt = block.timestamp;
        if (priceSeed % 16 == 0 && updatedAt > 2 days) updatedAt -= 2 days;
        // Cannot truncate: price <= 1.1e8.
        // forge-lint: disable-next-line(unsafe-typecast)
        p.feeds[assetSeed % 2].setAnswerAt(int256(price), updatedAt);
        _counted(MOVE_PRICE, true);
    }

    /// @dev A minute to six hours (the feeds' heartbeat is a day, the redeem delay a day).
    function warp(uint256 seed) public {
        vm.warp(block.timestamp + _bound(seed, 60, 6 hours));
        _counted(WARP, true);
    }

    function _request(uint256 seed) private view returns (Request storage r, bool found) {
        if (requests.length == 0) return (_missing(), false);
        // Prefer pending requests: settled ones only prove that a second settlement reverts.
        uint256 start = seed % requests.length;
        for (uint256 k = 0; k < requests.length; ++k) {
            r = requests[(start + k) % requests.length];
            if (r.pending || seed % 8 == 0) return (r, true);
        }
        return (requests[start], true);
    }

    function _settled(Request storage r) private {
        r.pending = false;
        --pendingCount;
        ghostEscrow -= r.amount;
    }

    Request private missing;

    function _missing() private view returns (Request storage) {
        return missing;
    }
}
