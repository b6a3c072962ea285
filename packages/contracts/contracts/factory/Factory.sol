// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IERC20Metadata} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Metadata.sol";
import {IERC4626} from "@openzeppelin/contracts/interfaces/IERC4626.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";
import {ProgramUpgradeable} from "../common/ProgramUpgradeable.sol";
import {IFactory} from "../interfaces/IFactory.sol";
import {IPoints} from "../interfaces/IPoints.sol";
import {IOracle} from "../interfaces/IOracle.sol";
import {ICollateralVault} from "../interfaces/ICollateralVault.sol";
import {CollateralMath} from "../libraries/CollateralMath.sol";

/// @title Factory
/// @notice Mints and redeems SP against collateral. See {IFactory}.
contract Factory is ProgramUpgradeable, ReentrancyGuardTransient, IFactory {
    using SafeERC20 for IERC20;

    /// @notice Role that manages allowlists, assets, basket mode and the redeem delay.
    bytes32 public constant MANAGER_ROLE = keccak256("MANAGER_ROLE");
    /// @notice Role that finalizes and rejects redemption requests, and nothing else.
    bytes32 public constant EXECUTOR_ROLE = keccak256("EXECUTOR_ROLE");
    /// @notice Highest mint or redeem fee: 10%.
    uint16 public constant MAX_FEE_BPS = 1_000;
    /// @notice Longest redeem delay.
    uint64 public constant MAX_REDEEM_DELAY = 30 days;
    /// @notice Most assets a Factory registers (bounds every basket loop).
    uint256 public constant MAX_ASSETS = 16;

    struct AssetConfig {
        address vault;
        uint8 decimals;
    }

    /// @custom:storage-location erc7201:points.storage.Factory
    struct FactoryStorage {
        address points;
        address oracle;
        bool basketModeForced;
        address feeReceiver;
        uint16 mintFeeBps;
        uint16 redeemFeeBps;
        uint64 redeemDelay;
        address[] assets;
        mapping(address asset => AssetConfig) assetConfigs;
        mapping(address account => bool) mintWhitelist;
        mapping(address account => bool) redeemWhitelist;
        mapping(uint256 requestId => RedeemRequest) requests;
        uint256 requestCount;
    }

    // keccak256(abi.encode(uint256(keccak256("points.storage.Factory")) - 1)) & ~bytes32(uint256(0xff))
    bytes32 private constant FACTORY_STORAGE = 0x88587c5531c3d2cbad88001b7e59f62562cd12b51d9726005bb671101b3bd400;

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

    // ---------------------------------------------------------------- configuration

    /// @inheritdoc IFactory
    function addToMintWhitelist(address account) external onlyRole(MANAGER_ROLE) {
        if (_setListed(_getFactoryStorage().mintWhitelist, account, true)) emit MintWhitelistUpdated(account, true);
    }

    /// @inheritdoc IFactory
    function removeFromMintWhitelist(address account) external onlyRole(MANAGER_ROLE) {
        if (_setListed(_getFactoryStorage().mintWhitelist, account, false)) emit MintWhitelistUpdated(account, false);
    }

    /// @inheritdoc IFactory
    function addToRedeemWhitelist(address account) external onlyRole(MANAGER_ROLE) {
        if (_setListed(_getFactoryStorage().redeemWhitelist, account, true)) emit RedeemWhitelistUpdated(account, true);
    }

    /// @inheritdoc IFactory
    function removeFromRedeemWhitelist(address account) external onlyRole(MANAGER_ROLE) {
        if (_setListed(_getFactoryStorage().redeemWhitelist, account, false))
            emit RedeemWhitelistUpdated(account, false);
    }

    /// @inheritdoc IFactory
    function registerAsset(address asset, address vault) external onlyRole(MANAGER_ROLE) {
        _registerAsset(asset, vault);
    }

    /// @inheritdoc IFactory
    function setBasketModeForced(bool forced) external onlyRole(MANAGER_ROLE) {
        _getFactoryStorage().basketModeForced = forced;
        emit BasketModeForced(forced);
    }

    /// @inheritdoc IFactory
    function setRedeemDelay(uint64 delay) external onlyRole(MANAGER_ROLE) {
        _setRedeemDelay(delay);
    }

    /// @inheritdoc IFactory
    function setFees(uint16 mintFeeBps_, uint16 redeemFeeBps_) external onlyRole(DEFAULT_ADMIN_ROLE) {
        _setFees(mintFeeBps_, redeemFeeBps_);
    }

    /// @inheritdoc IFactory
    function setFeeReceiver(address feeReceiver_) external onlyRole(DEFAULT_ADMIN_ROLE) {
        _setFeeReceiver(feeReceiver_);
    }

    /// @inheritdoc IFactory
    function setOracle(address oracle_) external onlyRole(DEFAULT_ADMIN_ROLE) {
        _setOracle(oracle_);
    }

    // ---------------------------------------------------------------- views

    /// @inheritdoc IFactory
    function getRedeemRequest(uint256 requestId) external view returns (RedeemRequest memory) {
        RedeemRequest memory request = _getFactoryStorage().requests[requestId];
        if (request.status == RedeemStatus.None) revert RedeemRequestNotFound(requestId);
        return request;
    }

    /// @inheritdoc IFactory
    function isBasketMode() external view returns (bool) {
        return _isBasketMode(_getFactoryStorage());
    }

    /// @inheritdoc IFactory
    function basketModeForced() external view returns (bool) {
        return _getFactoryStorage().basketModeForced;
    }

    /// @inheritdoc IFactory
    function assets() external view returns (address[] memory) {
        return _getFactoryStorage().assets;
    }

    /// @inheritdoc IFactory
    function vaultOf(address asset) external view returns (address) {
        return _getFactoryStorage().assetConfigs[asset].vault;
    }

    /// @inheritdoc IFactory
    function isMintWhitelisted(address account) external view returns (bool) {
        return _getFactoryStorage().mintWhitelist[account];
    }

    /// @inheritdoc IFactory
    function isRedeemWhitelisted(address account) external view returns (bool) {
        return _getFactoryStorage().redeemWhitelist[account];
    }

    /// @inheritdoc IFactory
    function points() external view returns (address) {
        return _getFactoryStorage().points;
    }

    /// @inheritdoc IFactory
    function oracle() external view returns (address) {
        return _getFactoryStorage().oracle;
    }

    /// @inheritdoc IFactory
    function mintFeeBps() external view returns (uint16) {
        return _getFactoryStorage().mintFeeBps;
    }

    /// @inheritdoc IFactory
    function redeemFeeBps() external view returns (uint16) {
        return _getFactoryStorage().redeemFeeBps;
    }

    /// @inheritdoc IFactory
    function feeReceiver() external view returns (address) {
        return _getFactoryStorage().feeReceiver;
    }

    /// @inheritdoc IFactory
    function redeemDelay() external view returns (uint64) {
        return _getFactoryStorage().redeemDelay;
    }

    /// @inheritdoc IFactory
    function redeemRequestCount() external view returns (uint256) {
        return _getFactoryStorage().requestCount;
    }

    // ---------------------------------------------------------------- internals

    function _isBasketMode(FactoryStorage storage $) private view returns (bool) {
        if ($.basketModeForced) return true;
        address oracle_ = $.oracle;
        if (oracle_ == address(0)) return false;
        address[] storage list = $.assets;
        uint256 n = list.length;
        for (uint256 i = 0; i < n; ++i) {
            if (!IOracle(oracle_).isPegged(list[i])) return true;
        }
        return false;
    }

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

    function _registerAsset(address asset, address vault) private {
        FactoryStorage storage $ = _getFactoryStorage();
        if (asset == address(0) || vault == address(0)) revert ZeroAddress();
        if ($.assetConfigs[asset].vault != address(0)) revert AssetAlreadyRegistered(asset);
        if ($.assets.length >= MAX_ASSETS) revert TooManyAssets(MAX_ASSETS);
        if (IERC4626(vault).asset() != asset || ICollateralVault(vault).factory() != address(this)) {
            revert InvalidVault(vault, asset);
        }
        uint8 decimals = IERC20Metadata(asset).decimals();
        if (decimals > 18) revert UnsupportedDecimals(asset, decimals);
        $.assets.push(asset);
        $.assetConfigs[asset] = AssetConfig(vault, decimals);
        emit AssetRegistered(asset, vault);
    }

    function _setFees(uint16 mintFeeBps_, uint16 redeemFeeBps_) private {
        if (mintFeeBps_ > MAX_FEE_BPS) revert FeeTooHigh(mintFeeBps_, MAX_FEE_BPS);
        if (redeemFeeBps_ > MAX_FEE_BPS) revert FeeTooHigh(redeemFeeBps_, MAX_FEE_BPS);
        FactoryStorage storage $ = _getFactoryStorage();
        ($.mintFeeBps, $.redeemFeeBps) = (mintFeeBps_, redeemFeeBps_);
        emit FeesUpdated(mintFeeBps_, redeemFeeBps_);
    }

    function _setFeeReceiver(address feeReceiver_) private {
        if (feeReceiver_ == address(0)) revert ZeroAddress();
        _getFactoryStorage().feeReceiver = feeReceiver_;
        emit FeeReceiverUpdated(feeReceiver_);
    }

    function _setRedeemDelay(uint64 delay) private {
        if (delay > MAX_REDEEM_DELAY) revert RedeemDelayTooLong(delay, MAX_REDEEM_DELAY);
        _getFactoryStorage().redeemDelay = delay;
        emit RedeemDelayUpdated(delay);
    }

    function _setOracle(address oracle_) private {
        _getFactoryStorage().oracle = oracle_;
        emit OracleUpdated(oracle_);
    }

    function _assetConfig(FactoryStorage storage $, address asset) private view returns (AssetConfig memory config) {
        config = $.assetConfigs[asset];
        if (config.vault == address(0)) revert AssetNotRegistered(asset);
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

    /// @dev Idempotent; returns whether anything changed (events only report changes).
    function _setListed(
        mapping(address => bool) storage list,
        address account,
        bool listed
    ) private returns (bool changed) {
        if (account == address(0)) revert ZeroAddress();
        changed = list[account] != listed;
        list[account] = listed;
    }

    function _getFactoryStorage() private pure returns (FactoryStorage storage $) {
        assembly {
            $.slot := FACTORY_STORAGE
        }
    }
}
