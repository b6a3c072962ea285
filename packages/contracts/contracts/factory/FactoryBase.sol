// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IERC20Metadata} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Metadata.sol";
import {IERC4626} from "@openzeppelin/contracts/interfaces/IERC4626.sol";
import {ProgramUpgradeable} from "../common/ProgramUpgradeable.sol";
import {IFactory} from "../interfaces/IFactory.sol";
import {IOracle} from "../interfaces/IOracle.sol";
import {ICollateralVault} from "../interfaces/ICollateralVault.sol";
import {FactoryState} from "./FactoryState.sol";

/// @title FactoryBase
/// @notice The Factory's configuration (allowlists, assets, fees, delay, oracle,
/// basket mode) and views. {Factory} adds minting and redemption.
abstract contract FactoryBase is ProgramUpgradeable, FactoryState, IFactory {
    /// @notice Role that manages allowlists, basket mode and the redeem delay.
    bytes32 public constant MANAGER_ROLE = keccak256("MANAGER_ROLE");
    /// @notice Role that finalizes and rejects redemption requests, and nothing else.
    bytes32 public constant EXECUTOR_ROLE = keccak256("EXECUTOR_ROLE");
    /// @notice Highest mint or redeem fee: 10%.
    uint16 public constant MAX_FEE_BPS = 1_000;
    /// @notice Longest redeem delay.
    uint64 public constant MAX_REDEEM_DELAY = 30 days;
    /// @notice Most assets a Factory registers (bounds every basket loop).
    uint256 public constant MAX_ASSETS = 16;

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
    function removeAsset(address asset) external onlyRole(DEFAULT_ADMIN_ROLE) {
        FactoryStorage storage $ = _getFactoryStorage();
        address vault = _assetConfig($, asset).vault;
        uint256 shares = IERC20(vault).balanceOf(address(this));
        if (shares != 0) revert VaultNotEmpty(asset, vault, shares);
        address[] storage list = $.assets;
        uint256 last = list.length - 1;
        for (uint256 i = 0; i <= last; ++i) {
            if (list[i] != asset) continue;
            list[i] = list[last];
            list.pop();
            break;
        }
        delete $.assetConfigs[asset];
        emit AssetRemoved(asset, vault);
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
        _requireFeeReceiverCanReceive();
    }

    /// @inheritdoc IFactory
    function setFeeReceiver(address feeReceiver_) external onlyRole(DEFAULT_ADMIN_ROLE) {
        _setFeeReceiver(feeReceiver_);
        _requireFeeReceiverCanReceive();
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
    function redeemReadyAt(uint256 requestId) external view returns (uint256) {
        FactoryStorage storage $ = _getFactoryStorage();
        if ($.requests[requestId].status == RedeemStatus.None) revert RedeemRequestNotFound(requestId);
        uint256 readyAt = $.readyAt[requestId];
        return readyAt == 0 ? $.requests[requestId].createdAt : readyAt;
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

    /// @dev With a fee on, the fee receiver must be able to receive SP, or every mint and
    /// redemption would revert later; refuse the configuration now instead.
    function _requireFeeReceiverCanReceive() internal view {
        FactoryStorage storage $ = _getFactoryStorage();
        if ($.mintFeeBps == 0 && $.redeemFeeBps == 0) return;
        if (!_canReceiveSp($, $.feeReceiver)) revert FeeReceiverNotWhitelisted($.feeReceiver);
    }

    function _registerAsset(address asset, address vault) internal {
        FactoryStorage storage $ = _getFactoryStorage();
        if (asset == address(0) || vault == address(0)) revert ZeroAddress();
        if ($.assetConfigs[asset].vault != address(0)) revert AssetAlreadyRegistered(asset);
        if ($.assets.length >= MAX_ASSETS) revert TooManyAssets(MAX_ASSETS);
        if (IERC4626(vault).asset() != asset || ICollateralVault(vault).factory() != address(this)) {
            revert InvalidVault(vault, asset);
        }
        address oracle_ = $.oracle;
        if (oracle_ != address(0) && IOracle(oracle_).feedOf(asset).feed == address(0)) revert AssetWithoutFeed(asset);
        uint8 decimals = IERC20Metadata(asset).decimals();
        if (decimals > 18) revert UnsupportedDecimals(asset, decimals);
        $.assets.push(asset);
        $.assetConfigs[asset] = AssetConfig(vault, decimals);
        emit AssetRegistered(asset, vault);
    }

    function _setFees(uint16 mintFeeBps_, uint16 redeemFeeBps_) internal {
        if (mintFeeBps_ > MAX_FEE_BPS) revert FeeTooHigh(mintFeeBps_, MAX_FEE_BPS);
        if (redeemFeeBps_ > MAX_FEE_BPS) revert FeeTooHigh(redeemFeeBps_, MAX_FEE_BPS);
        FactoryStorage storage $ = _getFactoryStorage();
        ($.mintFeeBps, $.redeemFeeBps) = (mintFeeBps_, redeemFeeBps_);
        emit FeesUpdated(mintFeeBps_, redeemFeeBps_);
    }

    function _setFeeReceiver(address feeReceiver_) internal {
        if (feeReceiver_ == address(0)) revert ZeroAddress();
        _getFactoryStorage().feeReceiver = feeReceiver_;
        emit FeeReceiverUpdated(feeReceiver_);
    }

    function _setRedeemDelay(uint64 delay) internal {
        if (delay > MAX_REDEEM_DELAY) revert RedeemDelayTooLong(delay, MAX_REDEEM_DELAY);
        _getFactoryStorage().redeemDelay = delay;
        emit RedeemDelayUpdated(delay);
    }

    function _setOracle(address oracle_) internal {
        _getFactoryStorage().oracle = oracle_;
        emit OracleUpdated(oracle_);
    }

    /// @dev Idempotent; returns whether anything changed (events only report changes).
    function _setListed(
        mapping(address => bool) storage list,
        address account,
        bool listed
    ) internal returns (bool changed) {
        if (account == address(0)) revert ZeroAddress();
        changed = list[account] != listed;
        list[account] = listed;
    }
}
