// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Oracle} from "../../oracle/Oracle.sol";

/// @title OracleV2Mock
/// @notice A storage-compatible next version of Oracle, for upgrade tests.
/// @dev Reuses the V1 initializer (the proxies it upgrades are already initialized), hence
/// the missing-initializer allowance.
/// @custom:oz-upgrades-from Oracle
/// @custom:oz-upgrades-unsafe-allow missing-initializer
contract OracleV2Mock is Oracle {
    /// @notice Identifies the upgraded implementation.
    function version() external pure returns (string memory) {
        return "2";
    }
}
