// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {Initializable} from "@openzeppelin/contracts-upgradeable/proxy/utils/Initializable.sol";
import {Create2} from "@openzeppelin/contracts/utils/Create2.sol";
import {ERC1967Utils} from "@openzeppelin/contracts/proxy/ERC1967/ERC1967Utils.sol";
import {IAccessControlDefaultAdminRules} from "@openzeppelin/contracts/access/extensions/IAccessControlDefaultAdminRules.sol";
import {FactoryModule} from "./FactoryModule.sol";
import {IFactory} from "../interfaces/IFactory.sol";
import {IProgramFactory} from "../interfaces/IProgramFactory.sol";
import {ProgramProxy} from "../proxy/ProgramProxy.sol";
import {CollateralVault} from "../vault/CollateralVault.sol";

/// @title FactoryVaults
/// @notice Creates the Factory's CollateralVaults (see {FactoryModule}): ERC-1967 proxies over
/// the release's CollateralVault implementation, at CREATE2 addresses only this Factory can
/// fill, which is how {IFactory.registerAsset} knows a vault's code without trusting it.
contract FactoryVaults is FactoryModule, Initializable {
    /// @notice {IFactory.createVault}, after the Factory's role check. The vault's admin and admin
    /// delay are the program's, read here from the Factory proxy (a view call to itself) so the
    /// Factory passes its calldata through untouched, which keeps it under the size limit.
    function createVault(
        address asset,
        string calldata name,
        string calldata symbol
    ) external onlyDelegateCall returns (address vault) {
        IAccessControlDefaultAdminRules program = IAccessControlDefaultAdminRules(address(this));
        (address admin, uint48 adminDelay) = (program.defaultAdmin(), program.defaultAdminDelay());
        address implementation = _getFactoryStorage().vaultImplementation;
        if (implementation == address(0)) revert IFactory.VaultImplementationUnknown();
        if (asset == address(0)) revert IFactory.ZeroAddress();
        address existing = vaultAddress(address(this), implementation, asset);
        if (existing.code.length != 0) revert IFactory.VaultAlreadyCreated(asset, existing);
        // Created and initialized in one transaction, as ProgramProxy requires.
        vault = Create2.deploy(0, _salt(asset), _initCode(implementation));
        CollateralVault(vault).initialize(IERC20(asset), address(this), admin, adminDelay, name, symbol);
        emit IFactory.CollateralVaultCreated(asset, vault);
    }

    /// @notice {IFactory.initializeVaultImplementation}, after the Factory's role check: once per
    /// proxy (reinitializer 2, on the proxy's Initializable storage), the CollateralVault of
    /// `programFactory`'s release, whose Factory must be the implementation the proxy runs now.
    function initializeVaultImplementation(address programFactory) external onlyDelegateCall reinitializer(2) {
        IProgramFactory.Implementations memory impls = IProgramFactory(programFactory).implementations();
        if (impls.factory != ERC1967Utils.getImplementation()) revert IFactory.ForeignRelease(programFactory);
        _getFactoryStorage().vaultImplementation = impls.collateralVault;
        emit IFactory.VaultImplementationRecorded(programFactory, impls.collateralVault);
    }

    /// @notice Where `factory` creates the vault of `asset` over `implementation`.
    function vaultAddress(address factory, address implementation, address asset) public pure returns (address) {
        return Create2.computeAddress(_salt(asset), keccak256(_initCode(implementation)), factory);
    }

    function _salt(address asset) private pure returns (bytes32) {
        return bytes32(uint256(uint160(asset)));
    }

    function _initCode(address implementation) private pure returns (bytes memory) {
        return abi.encodePacked(type(ProgramProxy).creationCode, abi.encode(implementation));
    }
}
