// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IAccessControl} from "@openzeppelin/contracts/access/IAccessControl.sol";
import {AccessControlUpgradeable} from "@openzeppelin/contracts-upgradeable/access/AccessControlUpgradeable.sol";
import {IERC4626} from "@openzeppelin/contracts/interfaces/IERC4626.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Address} from "@openzeppelin/contracts/utils/Address.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";
import {FactoryBase} from "./FactoryBase.sol";
import {FactoryRedemption} from "./FactoryRedemption.sol";
import {FactoryVaults} from "./FactoryVaults.sol";
import {IFactory} from "../interfaces/IFactory.sol";
import {IPoints} from "../interfaces/IPoints.sol";
import {IOracle} from "../interfaces/IOracle.sol";
import {CollateralMath} from "../libraries/CollateralMath.sol";

/// @title Factory
/// @notice Mints and redeems SP against collateral. See {IFactory}; configuration and views
/// live in {FactoryBase}, the redemption queue's code in {FactoryRedemption}.
contract Factory is FactoryBase, ReentrancyGuardTransient {
    using SafeERC20 for IERC20;

    /// @notice The redemption queue's code, run by delegatecall (see {FactoryRedemption}).
    /// @custom:oz-upgrades-unsafe-allow state-variable-immutable
    address private immutable _redemptionTarget;
    /// @notice The vault-creating code, run by delegatecall (see {FactoryVaults}).
    /// @custom:oz-upgrades-unsafe-allow state-variable-immutable
    address private immutable _vaultsTarget;

    /// @custom:oz-upgrades-unsafe-allow constructor
    constructor() {
        _redemptionTarget = address(new FactoryRedemption());
        _vaultsTarget = address(new FactoryVaults());
    }

    /// @notice Initializes the Factory; see {IFactory.InitParams}.
    function initialize(InitParams calldata p) external initializer {
        __Program_init(p.admin, p.adminDelay);
        if (p.points == address(0)) revert ZeroAddress();
        _grantRole(MANAGER_ROLE, p.admin);
        if (p.executor != address(0)) _grantRole(EXECUTOR_ROLE, p.executor);
        FactoryStorage storage $ = _getFactoryStorage();
        $.points = p.points;
        $.vaultImplementation = p.vaultImplementation;
        _setOracle(p.oracle);
        _setFeeReceiver(p.feeReceiver == address(0) ? p.admin : p.feeReceiver);
        _setFees(p.mintFeeBps, p.redeemFeeBps);
        _setRedeemDelay(p.redeemDelay);
        if (p.asset != address(0)) _registerAsset(p.asset, p.vault);
        _requireFeeReceiverCanReceive();
    }

    // ---------------------------------------------------------------- collateral vaults

    /// @inheritdoc IFactory
    function registerAsset(address asset, address vault) external onlyRole(DEFAULT_ADMIN_ROLE) {
        if (asset == address(0) || vault == address(0)) revert ZeroAddress();
        // Any contract can report the right asset() and factory(), and a proxy made by hand
        // can hide any implementation: only a vault this Factory created is trusted.
        if (vault != predictVault(asset) || vault.code.length == 0) revert InvalidVault(vault, asset);
        _registerAsset(asset, vault);
    }

    /// @inheritdoc IFactory
    function createVault(
        address,
        string calldata,
        string calldata
    ) external onlyRole(DEFAULT_ADMIN_ROLE) returns (address) {
        return abi.decode(_delegate(_vaultsTarget, msg.data), (address));
    }

    /// @inheritdoc IFactory
    /// @dev The implementation comes from the release, never from the caller: the admin names a
    /// ProgramFactory, and only one whose Factory is the code this proxy runs is taken; the
    /// module holds the reinitializer (see docs/deployment.md#migration-notes-for-existing-programs).
    function initializeVaultImplementation(address) external onlyRole(DEFAULT_ADMIN_ROLE) {
        _delegate(_vaultsTarget, msg.data);
    }

    /// @inheritdoc IFactory
    function predictVault(address asset) public view returns (address) {
        address implementation = _getFactoryStorage().vaultImplementation;
        return FactoryVaults(_vaultsTarget).vaultAddress(address(this), implementation, asset);
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
        _requireVaultNotPaused(config.vault);
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
        address,
        address,
        uint256,
        bool
    ) external nonReentrant whenNotPaused returns (uint256 requestId) {
        return abi.decode(_delegateRedemption(msg.data), (uint256));
    }

    /// @inheritdoc IFactory
    function cancelRedeem(uint256) external nonReentrant {
        _delegateRedemption(msg.data);
    }

    /// @inheritdoc IFactory
    function rejectRedeem(uint256) external {
        _delegateExecutorCall();
    }

    /// @inheritdoc IFactory
    function finalizeRedeem(uint256 requestId) external nonReentrant whenNotPaused {
        _delegateRedemption(
            abi.encodeCall(FactoryRedemption.finalizeRedeem, (requestId, hasRole(EXECUTOR_ROLE, msg.sender)))
        );
    }

    /// @inheritdoc IFactory
    /// @dev The module refuses while paused (see {FactoryRedemption.finalizeRedeemBatch}).
    function finalizeRedeemBatch(uint256[] calldata) external {
        _delegateExecutorCall();
    }

    /// @notice MANAGER_ROLE administers EXECUTOR_ROLE: the program's managers decide whether the
    /// service's executor acts on their redemption desk. Code, not storage: programs deployed
    /// before get the same rule with their upgrade.
    function getRoleAdmin(
        bytes32 role
    ) public view override(AccessControlUpgradeable, IAccessControl) returns (bytes32) {
        return role == EXECUTOR_ROLE ? MANAGER_ROLE : super.getRoleAdmin(role);
    }

    // ---------------------------------------------------------------- internals

    /// @dev The EXECUTOR_ROLE entry points share one checked path (it keeps the Factory small).
    function _delegateExecutorCall() private nonReentrant onlyRole(EXECUTOR_ROLE) {
        _delegateRedemption(msg.data);
    }

    function _delegateRedemption(bytes memory data) private returns (bytes memory) {
        return _delegate(_redemptionTarget, data);
    }

    /// @dev Runs a module's code in this proxy's context. Module addresses are fixed in this
    /// implementation's bytecode; changing them takes an upgrade.
    /// @custom:oz-upgrades-unsafe-allow delegatecall
    function _delegate(address target, bytes memory data) private returns (bytes memory) {
        return Address.functionDelegateCall(target, data);
    }

    /// @dev Refuses fee-on-transfer assets: the Factory must receive exactly `amount`.
    function _pullExactly(IERC20 asset, uint256 amount) private {
        uint256 before = asset.balanceOf(address(this));
        asset.safeTransferFrom(msg.sender, address(this), amount);
        uint256 received = asset.balanceOf(address(this)) - before;
        if (received != amount) revert UnsupportedAssetTransfer(address(asset), amount, received);
    }
}
