// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @title IProgramPausable
/// @notice Pause control shared by every pausable contract of a program.
/// @dev PAUSER_ROLE pauses; DEFAULT_ADMIN_ROLE unpauses, so a compromised pauser can stop a
/// program but never restart it. `paused()` and the `Paused`/`Unpaused` events come from
/// OpenZeppelin's PausableUpgradeable.
interface IProgramPausable {
    /// @notice Pauses the contract. Requires PAUSER_ROLE.
    function pause() external;

    /// @notice Unpauses the contract. Requires DEFAULT_ADMIN_ROLE.
    function unpause() external;
}
