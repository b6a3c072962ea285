// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Factory} from "../../factory/Factory.sol";

/// @title FactoryV2Mock
/// @notice A storage-compatible next version of Factory, for upgrade tests.
/// @custom:oz-upgrades-from Factory
contract FactoryV2Mock is Factory {
    /// @notice Identifies the upgraded implementation.
    function version() external pure returns (string memory) {
        return "2";
    }
}
