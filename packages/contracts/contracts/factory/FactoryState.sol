// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IFactory} from "../interfaces/IFactory.sol";
import {IOracle} from "../interfaces/IOracle.sol";
import {IPoints} from "../interfaces/IPoints.sol";
import {PausableUpgradeable} from "@openzeppelin/contracts-upgradeable/utils/PausableUpgradeable.sol";

/// @title FactoryState
/// @notice The Factory's storage and the reads both the Factory and its redemption code
/// ({FactoryRedemption}, run by delegatecall in the Factory proxy's context) need.
abstract contract FactoryState {
    /// @dev A registered asset: its vault and decimals (read once at registration).
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
        mapping(uint256 requestId => IFactory.RedeemRequest) requests;
        uint256 requestCount;
        // Appended in 0.2 (docs/deployment.md#migration-notes-for-existing-programs): when a
        // request made under a non-zero redeem delay is ready; zero for no wait.
        mapping(uint256 requestId => uint64) readyAt;
        // Appended in 0.2: the release's CollateralVault implementation (for createVault).
        address vaultImplementation;
    }

    // keccak256(abi.encode(uint256(keccak256("points.storage.Factory")) - 1)) & ~bytes32(uint256(0xff))
    bytes32 private constant FACTORY_STORAGE = 0x88587c5531c3d2cbad88001b7e59f62562cd12b51d9726005bb671101b3bd400;

    function _isBasketMode(FactoryStorage storage $) internal view returns (bool) {
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

    function _assetConfig(FactoryStorage storage $, address asset) internal view returns (AssetConfig memory config) {
        config = $.assetConfigs[asset];
        if (config.vault == address(0)) revert IFactory.AssetNotRegistered(asset);
    }

    /// @dev A paused vault refuses deposits and withdrawals; name it instead of letting the
    /// vault's generic pause error (or a zero `maxWithdraw`) speak for it.
    function _requireVaultNotPaused(address vault) internal view {
        if (PausableUpgradeable(vault).paused()) revert IFactory.CollateralVaultPaused(vault);
    }

    /// @dev Whether `account` can receive SP now (Points unrestricted, or it is listed).
    function _canReceiveSp(FactoryStorage storage $, address account) internal view returns (bool) {
        IPoints points_ = IPoints($.points);
        return !points_.transferRestricted() || points_.isTransferWhitelisted(account);
    }

    function _getFactoryStorage() internal pure returns (FactoryStorage storage $) {
        assembly {
            $.slot := FACTORY_STORAGE
        }
    }
}
