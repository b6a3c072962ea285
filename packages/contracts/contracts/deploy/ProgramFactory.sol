// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";
import {Create2} from "@openzeppelin/contracts/utils/Create2.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {ProgramProxy} from "../proxy/ProgramProxy.sol";
import {Points} from "../points/Points.sol";
import {Factory} from "../factory/Factory.sol";
import {CollateralVault} from "../vault/CollateralVault.sol";
import {PSPVault} from "../psp/PSPVault.sol";
import {Oracle} from "../oracle/Oracle.sol";
import {IFactory} from "../interfaces/IFactory.sol";
import {IOracle} from "../interfaces/IOracle.sol";
import {IProgramFactory} from "../interfaces/IProgramFactory.sol";
import {BrandLib} from "./BrandLib.sol";

/// @title ProgramFactory
/// @notice One per chain and release. See {IProgramFactory}.
/// @dev Not upgradeable on purpose: a new release is a new ProgramFactory.
contract ProgramFactory is AccessControl, IProgramFactory {
    /// @notice Role allowed to deploy programs (the service's executor).
    bytes32 public constant OPERATOR_ROLE = keccak256("OPERATOR_ROLE");

    address private immutable _points;
    address private immutable _factory;
    address private immutable _collateralVault;
    address private immutable _pspVault;
    address private immutable _oracle;
    string private _version;

    mapping(bytes32 brandHash => Program) private _programs;
    uint256 private _programCount;

    /// @param admin Manages operators. @param operator First operator (zero for none).
    constructor(address admin, address operator, Implementations memory impls, string memory version_) {
        if (admin == address(0)) revert ZeroAddress();
        _requireCode(impls.points);
        _requireCode(impls.factory);
        _requireCode(impls.collateralVault);
        _requireCode(impls.pspVault);
        _requireCode(impls.oracle);
        (_points, _factory, _collateralVault, _pspVault, _oracle) = (
            impls.points,
            impls.factory,
            impls.collateralVault,
            impls.pspVault,
            impls.oracle
        );
        _version = version_;
        _grantRole(DEFAULT_ADMIN_ROLE, admin);
        if (operator != address(0)) _grantRole(OPERATOR_ROLE, operator);
    }

    /// @inheritdoc IProgramFactory
    function deployProgram(DeployParams calldata p) external onlyRole(OPERATOR_ROLE) returns (Program memory program) {
        bytes32 brandHash = BrandLib.validate(p.brand);
        if (_programs[brandHash].points != address(0)) revert BrandTaken(p.brand);
        if (p.admin == address(0) || p.collateralAsset == address(0)) {
            revert ZeroAddress();
        }
        _requireCode(p.collateralAsset);

        program.points = _create(brandHash, 0, _points);
        program.factory = _create(brandHash, 1, _factory);
        program.collateralVault = _create(brandHash, 2, _collateralVault);
        program.pspVault = _create(brandHash, 3, _pspVault);
        if (p.oracleFeed != address(0)) program.oracle = _create(brandHash, 4, _oracle);
        _programs[brandHash] = program;
        ++_programCount;

        _initialize(p, program);
        emit ProgramDeployed(brandHash, p.brand, p.admin, p.executor, program);
    }

    /// @inheritdoc IProgramFactory
    function predictAddresses(string calldata brand) external view returns (Program memory program) {
        bytes32 brandHash = BrandLib.validate(brand);
        program.points = _predict(brandHash, 0, _points);
        program.factory = _predict(brandHash, 1, _factory);
        program.collateralVault = _predict(brandHash, 2, _collateralVault);
        program.pspVault = _predict(brandHash, 3, _pspVault);
        program.oracle = _predict(brandHash, 4, _oracle);
    }

    /// @inheritdoc IProgramFactory
    function programOf(string calldata brand) external view returns (Program memory) {
        return _programs[keccak256(bytes(brand))];
    }

    /// @inheritdoc IProgramFactory
    function implementations() external view returns (Implementations memory) {
        return Implementations(_points, _factory, _collateralVault, _pspVault, _oracle);
    }

    /// @inheritdoc IProgramFactory
    function version() external view returns (string memory) {
        return _version;
    }

    /// @inheritdoc IProgramFactory
    function programCount() external view returns (uint256) {
        return _programCount;
    }

    /// @dev Order matters only for reads made inside initializers: the vault is initialized
    /// before the Factory, whose initializer checks the vault's asset and factory.
    function _initialize(DeployParams calldata p, Program memory program) private {
        address feeReceiver = p.feeReceiver == address(0) ? p.admin : p.feeReceiver;
        bool hasFee = p.mintFeeBps != 0 || p.redeemFeeBps != 0;
        address[] memory whitelist = new address[](hasFee ? 3 : 2);
        (whitelist[0], whitelist[1]) = (program.factory, program.pspVault);
        if (hasFee) whitelist[2] = feeReceiver;

        Points(program.points).initialize(
            p.tokenName,
            p.tokenSymbol,
            p.admin,
            p.adminDelay,
            program.factory,
            whitelist
        );
        CollateralVault(program.collateralVault).initialize(
            IERC20(p.collateralAsset),
            program.factory,
            p.admin,
            p.adminDelay,
            string.concat(p.tokenName, " Collateral"),
            string.concat("c", p.tokenSymbol)
        );
        if (program.oracle != address(0)) {
            IOracle.FeedInit[] memory feeds = new IOracle.FeedInit[](1);
            feeds[0] = IOracle.FeedInit(p.collateralAsset, p.oracleFeed, p.oracleHeartbeat, p.lowerPeg, p.upperPeg);
            Oracle(program.oracle).initialize(p.admin, p.adminDelay, feeds);
        }
        Factory(program.factory).initialize(
            IFactory.InitParams({
                admin: p.admin,
                adminDelay: p.adminDelay,
                points: program.points,
                executor: p.executor,
                oracle: program.oracle,
                asset: p.collateralAsset,
                vault: program.collateralVault,
                feeReceiver: feeReceiver,
                mintFeeBps: p.mintFeeBps,
                redeemFeeBps: p.redeemFeeBps,
                redeemDelay: p.redeemDelay,
                vaultImplementation: _collateralVault
            })
        );
        PSPVault(program.pspVault).initialize(p.admin, p.adminDelay, program.points);
    }

    function _create(bytes32 brandHash, uint256 index, address implementation) private returns (address) {
        return Create2.deploy(0, _salt(brandHash, index), _initCode(implementation));
    }

    function _predict(bytes32 brandHash, uint256 index, address implementation) private view returns (address) {
        return Create2.computeAddress(_salt(brandHash, index), keccak256(_initCode(implementation)));
    }

    function _salt(bytes32 brandHash, uint256 index) private pure returns (bytes32) {
        return keccak256(abi.encode(brandHash, index));
    }

    function _initCode(address implementation) private pure returns (bytes memory) {
        return abi.encodePacked(type(ProgramProxy).creationCode, abi.encode(implementation));
    }

    function _requireCode(address account) private view {
        if (account.code.length == 0) revert NotAContract(account);
    }
}
