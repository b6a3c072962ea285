// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Points} from "../../points/Points.sol";

/// @title PointsV2Mock
/// @notice A storage-compatible next version of Points, for upgrade tests.
/// @dev Reuses the V1 initializer (the proxies it upgrades are already initialized), hence
/// the missing-initializer allowance.
/// @custom:oz-upgrades-from Points
/// @custom:oz-upgrades-unsafe-allow missing-initializer
contract PointsV2Mock is Points {
    /// @notice Identifies the upgraded implementation.
    function version() external pure returns (string memory) {
        return "2";
    }
}
