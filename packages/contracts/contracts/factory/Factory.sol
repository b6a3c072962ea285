// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IERC4626} from "@openzeppelin/contracts/interfaces/IERC4626.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";
import {FactoryBase} from "./FactoryBase.sol";
import {IFactory} from "../interfaces/IFactory.sol";
import {IPoints} from "../interfaces/IPoints.sol";
import {IOracle} from "../interfaces/IOracle.sol";
import {CollateralMath} from "../libraries/CollateralMath.sol";

/// @title Factory
/// @notice Mints and redeems SP against collateral. See {IFactory}; configuration and views
/// live in {FactoryBase}.
contract Factory is FactoryBase, ReentrancyGuardTransient {
    using SafeERC20 for IERC20;

    /// @notice Initializes the Factory; see {IFactory.InitParams}.
    function initialize(InitParams calldata p) external initializer {
        __Program_init(p.admin, p.adminDelay);
        if (p.points == address(0)) revert ZeroAddress();
        _grantRole(MANAGER_ROLE, p.admin);
        if (p.executor != address(0)) _grantRole(EXECUTOR_ROLE, p.executor);
        FactoryStorage storage $ = _getFactoryStorage();
        $.points = p.points;
        _setOracle(p.oracle);
        _setFeeReceiver(p.feeReceiver == address(0) ? p.admin : p.feeReceiver);
        _setFees(p.mintFeeBps, p.redeemFeeBps);
        _setRedeemDelay(p.redeemDelay);
        if (p.asset != address(0)) _registerAsset(p.asset, p.vault);
        _requireFeeReceiverCanReceive();
    }

    // ---------------------------------------------------------------- mint and redeem

    /// @inheritdoc IFactory
    function mint(
        address asset,
        uint256 amount,
        address receiver
    ) external nonReentrant whenNotPaused returns (uint256 minted) {
        FactoryStorage storage $ = _getFactoryStorage();
        if (!$.mintWhitelist[msg.sender]) revert NotMintWhitelisted(msg.sender);
        if (amount == 0) revert ZeroAmount();
        if (receiver == address(0)) revert ZeroAddress();
        AssetConfig memory config = _assetConfig($, asset);
        uint256 price = CollateralMath.ONE;
        address oracle_ = $.oracle;
        if (oracle_ != address(0)) {
            if (!IOracle(oracle_).isPegged(asset)) revert AssetNotPegged(asset);
            price = IOracle(oracle_).getPrice(asset);
        }
        if (_isBasketMode($)) revert BasketModeActive();

        uint256 gross = CollateralMath.spForCollateral(CollateralMath.normalise(amount, config.decimals), price);
        uint256 fee = CollateralMath.fee(gross, $.mintFeeBps);
        minted = gross - fee;
        if (minted == 0) revert AmountTooSmall(amount);

        _pullExactly(IERC20(asset), amount);
        IERC20(asset).forceApprove(config.vault, amount);
        IERC4626(config.vault).deposit(amount, address(this));

        IPoints($.points).mint(receiver, minted);
        if (fee != 0) IPoints($.points).mint($.feeReceiver, fee);
        emit Minted(msg.sender, asset, receiver, amount, minted, fee);
    }

    /// @inheritdoc IFactory
    function requestRedeem(
        address asset,
        address to,
        uint256 amount,
        bool expectedBasketMode
    ) external nonReentrant whenNotPaused returns (uint256 requestId) {
        FactoryStorage storage $ = _getFactoryStorage();
        if (!$.redeemWhitelist[msg.sender]) revert NotRedeemWhitelisted(msg.sender);
        if (amount == 0) revert ZeroAmount();
        if (to == address(0)) revert ZeroAddress();
        _assetConfig($, asset);
        bool basketMode = _isBasketMode($);
        if (basketMode != expectedBasketMode) revert UnexpectedBasketMode(basketMode);

        requestId = ++$.requestCount;
        $.requests[requestId] = RedeemRequest({
            requester: msg.sender,
            createdAt: uint64(block.timestamp),
            status: RedeemStatus.Pending,
            expectedBasketMode: expectedBasketMode,
            redeemFeeBps: $.redeemFeeBps,
            asset: asset,
            to: to,
            amount: amount
        });
        IERC20($.points).safeTransferFrom(msg.sender, address(this), amount);
        emit RedeemRequested(requestId, msg.sender, asset, to, amount, expectedBasketMode);
    }

    /// @inheritdoc IFactory
    function cancelRedeem(uint256 requestId) external nonReentrant {
        FactoryStorage storage $ = _getFactoryStorage();
        RedeemRequest storage request = _pendingRequest($, requestId);
        if (msg.sender != request.requester) revert NotRequester(requestId, msg.sender);
        request.status = RedeemStatus.Cancelled;
        IERC20($.points).safeTransfer(request.requester, request.amount);
        emit RedeemCancelled(requestId);
    }

    /// @inheritdoc IFactory
    function rejectRedeem(uint256 requestId) external nonReentrant onlyRole(EXECUTOR_ROLE) {
        FactoryStorage storage $ = _getFactoryStorage();
        RedeemRequest storage request = _pendingRequest($, requestId);
        request.status = RedeemStatus.Rejected;
        IERC20($.points).safeTransfer(request.requester, request.amount);
        emit RedeemRejected(requestId, msg.sender);
    }

    /// @inheritdoc IFactory
    function finalizeRedeem(uint256 requestId) external nonReentrant whenNotPaused {
        FactoryStorage storage $ = _getFactoryStorage();
        RedeemRequest storage request = _pendingRequest($, requestId);
        if (!hasRole(EXECUTOR_ROLE, msg.sender)) {
            if (msg.sender != request.requester) revert NotRequester(requestId, msg.sender);
            uint256 readyAt = uint256(request.createdAt) + $.redeemDelay;
            if (block.timestamp < readyAt) revert RedeemDelayNotElapsed(requestId, readyAt);
        }
        bool basketMode = _isBasketMode($);
        if (basketMode != request.expectedBasketMode) revert UnexpectedBasketMode(basketMode);
        request.status = RedeemStatus.Finalized;

        uint256 amount = request.amount;
        uint256 fee = CollateralMath.fee(amount, request.redeemFeeBps);
        uint256 net = amount - fee;
        uint256 paid =
            basketMode
                ? _payBasket($, requestId, net, request.to)
                : _paySingle($, requestId, request.asset, net, request.to);
        if (paid == 0) revert AmountTooSmall(amount);

        IPoints($.points).burn(net);
        if (fee != 0) IERC20($.points).safeTransfer($.feeReceiver, fee);
        emit RedeemFinalized(requestId, msg.sender, net, fee, basketMode);
    }

    // ---------------------------------------------------------------- internals

    /// @dev Pays `net` SP worth of `asset` at its price (capped at par in the protocol's favour).
    function _paySingle(
        FactoryStorage storage $,
        uint256 requestId,
        address asset,
        uint256 net,
        address to
    ) private returns (uint256 paid) {
        AssetConfig memory config = $.assetConfigs[asset];
        address oracle_ = $.oracle;
        uint256 price = oracle_ == address(0) ? CollateralMath.ONE : IOracle(oracle_).getPrice(asset);
        paid = CollateralMath.denormaliseDown(CollateralMath.collateralForSp(net, price), config.decimals);
        if (paid != 0) {
            IERC4626(config.vault).withdraw(paid, to, address(this));
            emit CollateralPaid(requestId, asset, to, paid);
        }
    }

    /// @dev Pays `net` SP pro rata from every vault, each asset priced at 1.0. Returns the
    /// normalised total paid. Uses what the Factory can withdraw (ERC-4626 rounds it down).
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
            available[i] = IERC4626(config.vault).maxWithdraw(address(this));
            total += CollateralMath.normalise(available[i], config.decimals);
        }
        if (total == 0) revert NoCollateral();
        for (uint256 i = 0; i < n; ++i) {
            uint256 amount = Math.mulDiv(net, available[i], total, Math.Rounding.Floor);
            if (amount == 0) continue;
            AssetConfig memory config = $.assetConfigs[list[i]];
            IERC4626(config.vault).withdraw(amount, to, address(this));
            paid += CollateralMath.normalise(amount, config.decimals);
            emit CollateralPaid(requestId, list[i], to, amount);
        }
    }

    /// @dev Refuses fee-on-transfer assets: the Factory must receive exactly `amount`.
    function _pullExactly(IERC20 asset, uint256 amount) private {
        uint256 before = asset.balanceOf(address(this));
        asset.safeTransferFrom(msg.sender, address(this), amount);
        uint256 received = asset.balanceOf(address(this)) - before;
        if (received != amount) revert UnsupportedAssetTransfer(address(asset), amount, received);
    }

    function _pendingRequest(
        FactoryStorage storage $,
        uint256 requestId
    ) private view returns (RedeemRequest storage request) {
        request = $.requests[requestId];
        if (request.status != RedeemStatus.Pending) {
            if (request.status == RedeemStatus.None) revert RedeemRequestNotFound(requestId);
            revert RedeemRequestNotPending(requestId, request.status);
        }
    }
}
