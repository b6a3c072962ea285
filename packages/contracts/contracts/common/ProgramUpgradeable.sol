// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Initializable} from "@openzeppelin/contracts-upgradeable/proxy/utils/Initializable.sol";
import {UUPSUpgradeable} from "@openzeppelin/contracts-upgradeable/proxy/utils/UUPSUpgradeable.sol";
import {AccessControlDefaultAdminRulesUpgradeable} from "@openzeppelin/contracts-upgradeable/access/extensions/AccessControlDefaultAdminRulesUpgradeable.sol";
import {PausableUpgradeable} from "@openzeppelin/contracts-upgradeable/utils/PausableUpgradeable.sol";
import {IProgramPausable} from "../interfaces/IProgramPausable.sol";

/// @title ProgramUpgradeable
/// @notice What every contract of a program shares: UUPS upgrades gated by
/// DEFAULT_ADMIN_ROLE, one two-step delayed admin, and pause control.
/// @dev Holds no state of its own; every parent keeps its state in ERC-7201 namespaces.
abstract contract ProgramUpgradeable is
    Initializable,
    UUPSUpgradeable,
    AccessControlDefaultAdminRulesUpgradeable,
    PausableUpgradeable,
    IProgramPausable
{
    /// @notice Role allowed to pause the contract.
    bytes32 public constant PAUSER_ROLE = keccak256("PAUSER_ROLE");

    /// @custom:oz-upgrades-unsafe-allow constructor
    constructor() {
        _disableInitializers();
    }

    /// @dev `admin` becomes the single DEFAULT_ADMIN_ROLE holder and a pauser. A zero admin
    /// reverts inside AccessControlDefaultAdminRules.
    // solhint-disable-next-line func-name-mixedcase
    function __Program_init(address admin, uint48 adminDelay) internal onlyInitializing {
        __AccessControlDefaultAdminRules_init(adminDelay, admin);
        __Pausable_init();
        _grantRole(PAUSER_ROLE, admin);
    }

    /// @inheritdoc IProgramPausable
    function pause() external onlyRole(PAUSER_ROLE) {
        _pause();
    }

    /// @inheritdoc IProgramPausable
    function unpause() external onlyRole(DEFAULT_ADMIN_ROLE) {
        _unpause();
    }

    /// @dev Only the program's admin (the brand's wallet or its multisig) upgrades.
    function _authorizeUpgrade(address) internal override onlyRole(DEFAULT_ADMIN_ROLE) {}
}
