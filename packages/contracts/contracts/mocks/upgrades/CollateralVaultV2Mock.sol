// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {CollateralVault} from "../../vault/CollateralVault.sol";

/// @title CollateralVaultV2Mock
/// @notice A storage-compatible next version of CollateralVault, for upgrade tests.
/// @dev Reuses the V1 initializer (the proxies it upgrades are already initialized), hence
/// the missing-initializer allowance.
/// @custom:oz-upgrades-from CollateralVault
/// @custom:oz-upgrades-unsafe-allow missing-initializer
contract CollateralVaultV2Mock is CollateralVault {
    /// @notice Identifies the upgraded implementation.
    function version() external pure returns (string memory) {
        return "2";
    }
}
