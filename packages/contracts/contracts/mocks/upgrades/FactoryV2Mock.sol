// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Factory} from "../../factory/Factory.sol";

/// @title FactoryV2Mock
/// @notice A storage-compatible next version of Factory, for upgrade tests.
/// @dev Reuses the V1 initializer (the proxies it upgrades are already initialized), hence
/// the missing-initializer allowance.
/// @custom:oz-upgrades-from Factory
/// @custom:oz-upgrades-unsafe-allow missing-initializer
contract FactoryV2Mock is Factory {
    /// @notice Identifies the upgraded implementation.
    function version() external pure returns (string memory) {
        return "2";
    }
}
