// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Points} from "../../points/Points.sol";

/// @title PointsV2Mock
/// @notice A storage-compatible next version of Points, for upgrade tests.
/// @custom:oz-upgrades-from Points
contract PointsV2Mock is Points {
    /// @notice Identifies the upgraded implementation.
    function version() external pure returns (string memory) {
        return "2";
    }
}
