// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {ERC4626Upgradeable} from "@openzeppelin/contracts-upgradeable/token/ERC20/extensions/ERC4626Upgradeable.sol";
import {ProgramUpgradeable} from "../common/ProgramUpgradeable.sol";
import {ICollateralVault} from "../interfaces/ICollateralVault.sol";

/// @title CollateralVault
/// @notice Holds one collateral asset for a program. See {ICollateralVault}.
contract CollateralVault is ProgramUpgradeable, ERC4626Upgradeable, ICollateralVault {
    /// @custom:storage-location erc7201:points.storage.CollateralVault
    struct CollateralVaultStorage {
        address factory;
    }

    // keccak256(abi.encode(uint256(keccak256("points.storage.CollateralVault")) - 1)) & ~bytes32(uint256(0xff))
    bytes32 private constant VAULT_STORAGE = 0x57dd4faeff6ea8f1ba6b6f8cc4878c95ba2999e9160d6080762307b2d3b60800;

    /// @notice Initializes the vault over `asset_`; only `factory_` will move funds.
    function initialize(
        IERC20 asset_,
        address factory_,
        address admin,
        uint48 adminDelay,
        string calldata name_,
        string calldata symbol_
    ) external initializer {
        if (address(asset_) == address(0) || factory_ == address(0)) revert ZeroAddress();
        __Program_init(admin, adminDelay);
        __ERC20_init(name_, symbol_);
        __ERC4626_init(asset_);
        _getVaultStorage().factory = factory_;
    }

    /// @inheritdoc ICollateralVault
    function factory() external view returns (address) {
        return _getVaultStorage().factory;
    }

    /// @dev EIP-4626: the max views return 0 while an action is disabled, even temporarily.
    function maxDeposit(address receiver) public view override returns (uint256) {
        return paused() ? 0 : super.maxDeposit(receiver);
    }

    /// @dev See {maxDeposit}.
    function maxMint(address receiver) public view override returns (uint256) {
        return paused() ? 0 : super.maxMint(receiver);
    }

    /// @dev See {maxDeposit}.
    function maxWithdraw(address owner) public view override returns (uint256) {
        return paused() ? 0 : super.maxWithdraw(owner);
    }

    /// @dev See {maxDeposit}.
    function maxRedeem(address owner) public view override returns (uint256) {
        return paused() ? 0 : super.maxRedeem(owner);
    }

    /// @dev Paused first: otherwise a zero max view would answer with ERC4626ExceededMax*.
    function deposit(uint256 assets, address receiver) public override whenNotPaused returns (uint256) {
        return super.deposit(assets, receiver);
    }

    /// @dev See {deposit}.
    function mint(uint256 shares, address receiver) public override whenNotPaused returns (uint256) {
        return super.mint(shares, receiver);
    }

    /// @dev See {deposit}.
    function withdraw(uint256 assets, address receiver, address owner) public override whenNotPaused returns (uint256) {
        return super.withdraw(assets, receiver, owner);
    }

    /// @dev See {deposit}.
    function redeem(uint256 shares, address receiver, address owner) public override whenNotPaused returns (uint256) {
        return super.redeem(shares, receiver, owner);
    }

    function _deposit(address caller, address receiver, uint256 assets, uint256 shares) internal override {
        _requireFactory(caller);
        super._deposit(caller, receiver, assets, shares);
    }

    function _withdraw(
        address caller,
        address receiver,
        address owner,
        uint256 assets,
        uint256 shares
    ) internal override {
        _requireFactory(caller);
        super._withdraw(caller, receiver, owner, assets, shares);
    }

    /// @dev One share per unit of asset deposited. The Factory is the only holder, so share
    /// pricing serves nothing; and with ERC-4626 pricing, assets sent to the vault directly
    /// before the first deposit would leave the Factory zero shares (its collateral locked,
    /// its SP unredeemable). Assets sent directly are therefore never claimable.
    function _convertToShares(uint256 assets, Math.Rounding) internal pure override returns (uint256) {
        return assets;
    }

    /// @dev See {_convertToShares}.
    function _convertToAssets(uint256 shares, Math.Rounding) internal pure override returns (uint256) {
        return shares;
    }

    /// @dev Shares are only minted to and burned from the Factory.
    function _update(address from, address to, uint256 value) internal override {
        if (from != address(0) && to != address(0)) revert SharesNonTransferable();
        super._update(from, to, value);
    }

    function _requireFactory(address caller) private view {
        if (caller != _getVaultStorage().factory) revert CallerNotFactory(caller);
    }

    function _getVaultStorage() private pure returns (CollateralVaultStorage storage $) {
        assembly {
            $.slot := VAULT_STORAGE
        }
    }
}
