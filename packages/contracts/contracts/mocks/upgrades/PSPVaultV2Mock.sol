// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {PSPVault} from "../../psp/PSPVault.sol";

/// @title PSPVaultV2Mock
/// @notice A storage-compatible next version of PSPVault, for upgrade tests.
/// @dev Reuses the V1 initializer (the proxies it upgrades are already initialized), hence
/// the missing-initializer allowance.
/// @custom:oz-upgrades-from PSPVault
/// @custom:oz-upgrades-unsafe-allow missing-initializer
contract PSPVaultV2Mock is PSPVault {
    /// @notice Identifies the upgraded implementation.
    function version() external pure returns (string memory) {
        return "2";
    }
}
