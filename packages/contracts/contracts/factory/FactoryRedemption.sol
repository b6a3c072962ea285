// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IERC4626} from "@openzeppelin/contracts/interfaces/IERC4626.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {PausableUpgradeable} from "@openzeppelin/contracts-upgradeable/utils/PausableUpgradeable.sol";
import {FactoryModule} from "./FactoryModule.sol";
import {IFactory} from "../interfaces/IFactory.sol";
import {IPoints} from "../interfaces/IPoints.sol";
import {IOracle} from "../interfaces/IOracle.sol";
import {CollateralMath} from "../libraries/CollateralMath.sol";

/// @title FactoryRedemption
/// @notice The redemption queue's code (see {FactoryModule}): running in the Factory proxy's
/// context, the proxy stays the vaults' caller, the SP minter and the escrow holder.
contract FactoryRedemption is FactoryModule {
    using SafeERC20 for IERC20;

    /// @notice {IFactory.requestRedeem}, after the Factory's pause and reentrancy checks.
    function requestRedeem(
        address asset,
        address to,
        uint256 amount,
        bool expectedBasketMode
    ) external onlyDelegateCall returns (uint256 requestId) {
        FactoryStorage storage $ = _getFactoryStorage();
        if (!$.redeemWhitelist[msg.sender]) revert IFactory.NotRedeemWhitelisted(msg.sender);
        if (amount == 0) revert IFactory.ZeroAmount();
        if (to == address(0)) revert IFactory.ZeroAddress();
        _assetConfig($, asset);
        bool basketMode = _isBasketMode($);
        if (basketMode != expectedBasketMode) revert IFactory.UnexpectedBasketMode(basketMode);

        requestId = ++$.requestCount;
        $.requests[requestId] = IFactory.RedeemRequest({
            requester: msg.sender,
            createdAt: uint64(block.timestamp),
            status: IFactory.RedeemStatus.Pending,
            expectedBasketMode: expectedBasketMode,
            redeemFeeBps: $.redeemFeeBps,
            asset: asset,
            to: to,
            amount: amount
        });
        // The delay is the one in force now, like the fee; nothing stored when there is none.
        uint64 delay = $.redeemDelay;
        if (delay != 0) $.readyAt[requestId] = uint64(block.timestamp) + delay;
        IERC20($.points).safeTransferFrom(msg.sender, address(this), amount);
        emit IFactory.RedeemRequested(requestId, msg.sender, asset, to, amount, expectedBasketMode);
    }

    /// @notice {IFactory.cancelRedeem}, after the Factory's reentrancy check.
    function cancelRedeem(uint256 requestId) external onlyDelegateCall {
        FactoryStorage storage $ = _getFactoryStorage();
        IFactory.RedeemRequest storage request = _pendingRequest($, requestId);
        if (msg.sender != request.requester) revert IFactory.NotRequester(requestId, msg.sender);
        request.status = IFactory.RedeemStatus.Cancelled;
        IERC20($.points).safeTransfer(request.requester, request.amount);
        emit IFactory.RedeemCancelled(requestId);
    }

    /// @notice {IFactory.rejectRedeem}, after the Factory's role and reentrancy checks.
    function rejectRedeem(uint256 requestId) external onlyDelegateCall {
        FactoryStorage storage $ = _getFactoryStorage();
        IFactory.RedeemRequest storage request = _pendingRequest($, requestId);
        request.status = IFactory.RedeemStatus.Rejected;
        IERC20($.points).safeTransfer(request.requester, request.amount);
        emit IFactory.RedeemRejected(requestId, msg.sender);
    }

    /// @notice {IFactory.finalizeRedeem}, after the Factory's pause and reentrancy checks;
    /// `byExecutor` tells whether the caller holds EXECUTOR_ROLE (read by the Factory).
    function finalizeRedeem(uint256 requestId, bool byExecutor) external onlyDelegateCall {
        FactoryStorage storage $ = _getFactoryStorage();
        IFactory.RedeemRequest storage request = _pendingRequest($, requestId);
        if (!byExecutor) {
            if (msg.sender != request.requester) revert IFactory.NotRequester(requestId, msg.sender);
            uint256 readyAt = $.readyAt[requestId];
            // Time on purpose (delays, staleness, grace periods of minutes to days): see README.md#forge-lint.
            // forge-lint: disable-next-line(block-timestamp)
            if (block.timestamp < readyAt) revert IFactory.RedeemDelayNotElapsed(requestId, readyAt);
        }
        bool basketMode = _isBasketMode($);
        // A requester that cannot get its SP back (cancel would revert) accepts the mode it finds.
        if (basketMode != request.expectedBasketMode && (byExecutor || _canReceiveSp($, request.requester))) {
            revert IFactory.UnexpectedBasketMode(basketMode);
        }
        request.status = IFactory.RedeemStatus.Finalized;

        uint256 amount = request.amount;
        uint256 fee = CollateralMath.fee(amount, request.redeemFeeBps);
        uint256 net = amount - fee;
        uint256 paid =
            basketMode
                ? _payBasket($, requestId, net, request.to)
                : _paySingle($, requestId, request.asset, net, request.to);
        if (paid == 0) revert IFactory.AmountTooSmall(amount);

        address feeReceiver = $.feeReceiver;
        // A delisted fee receiver must not block the request, and nobody else may take its fee.
        if (fee != 0 && !_canReceiveSp($, feeReceiver)) {
            emit IFactory.RedeemFeeBurned(requestId, feeReceiver, fee);
            (net, fee) = (amount, 0);
        }
        IPoints($.points).burn(net);
        if (fee != 0) IERC20($.points).safeTransfer(feeReceiver, fee);
        emit IFactory.RedeemFinalized(requestId, msg.sender, net, fee, basketMode);
    }

    /// @notice {IFactory.finalizeRedeemBatch}, after the Factory's role and reentrancy checks.
    /// Each request runs in its own delegatecall so a revert undoes only that request.
    /// @custom:oz-upgrades-unsafe-allow delegatecall
    function finalizeRedeemBatch(uint256[] calldata requestIds) external onlyDelegateCall {
        // The pause check lives here, not in the Factory, to keep the Factory under the size limit.
        if (PausableUpgradeable(address(this)).paused()) revert PausableUpgradeable.EnforcedPause();
        uint256 n = requestIds.length;
        for (uint256 i = 0; i < n; ++i) {
            // solhint-disable-next-line avoid-low-level-calls
            (bool ok, bytes memory reason) = _self.delegatecall(
                abi.encodeCall(FactoryRedemption.finalizeRedeem, (requestIds[i], true))
            );
            if (!ok) emit IFactory.RedeemFinalizeSkipped(requestIds[i], reason);
        }
    }

    /// @dev Pays `net` SP worth of `asset` at its price (capped at par in the protocol's favour).
    function _paySingle(
        FactoryStorage storage $,
        uint256 requestId,
        address asset,
        uint256 net,
        address to
    ) private returns (uint256 paid) {
        AssetConfig memory config = _assetConfig($, asset);
        _requireVaultNotPaused(config.vault);
        address oracle_ = $.oracle;
        uint256 price = oracle_ == address(0) ? CollateralMath.ONE : IOracle(oracle_).getPrice(asset);
        paid = CollateralMath.denormaliseDown(CollateralMath.collateralForSp(net, price), config.decimals);
        if (paid != 0) {
            IERC4626(config.vault).withdraw(paid, to, address(this));
            emit IFactory.CollateralPaid(requestId, asset, to, paid);
        }
    }

    /// @dev Pays `net` SP pro rata from every vault, each asset priced at 1.0. Returns the
    /// normalised total paid. Uses what the Factory can withdraw (ERC-4626 rounds it down).
    /// Every vault must be unpaused: a paused vault reports nothing withdrawable, and skipping
    /// it would pay its share out of the other assets' collateral.
    function _payBasket(
        FactoryStorage storage $,
        uint256 requestId,
        uint256 net,
        address to
    ) private returns (uint256 paid) {
        address[] storage list = $.assets;
        uint256 n = list.length;
        uint256[] memory available = new uint256[](n);
        uint256 total;
        for (uint256 i = 0; i < n; ++i) {
            AssetConfig memory config = $.assetConfigs[list[i]];
            _requireVaultNotPaused(config.vault);
            available[i] = IERC4626(config.vault).maxWithdraw(address(this));
            total += CollateralMath.normalise(available[i], config.decimals);
        }
        if (total == 0) revert IFactory.NoCollateral();
        for (uint256 i = 0; i < n; ++i) {
            uint256 amount = Math.mulDiv(net, available[i], total, Math.Rounding.Floor);
            if (amount == 0) continue;
            AssetConfig memory config = $.assetConfigs[list[i]];
            IERC4626(config.vault).withdraw(amount, to, address(this));
            paid += CollateralMath.normalise(amount, config.decimals);
            emit IFactory.CollateralPaid(requestId, list[i], to, amount);
        }
    }

    function _pendingRequest(
        FactoryStorage storage $,
        uint256 requestId
    ) private view returns (IFactory.RedeemRequest storage request) {
        request = $.requests[requestId];
        if (request.status != IFactory.RedeemStatus.Pending) {
            if (request.status == IFactory.RedeemStatus.None) revert IFactory.RedeemRequestNotFound(requestId);
            revert IFactory.RedeemRequestNotPending(requestId, request.status);
        }
    }
}
