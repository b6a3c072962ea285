// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @title IPoints
/// @notice Branded SP: an ERC-20 (18 decimals, ERC-2612 permit) whose transfers are limited to
/// a transfer allowlist while `transferRestricted` is on. Only MINTER_ROLE (the Factory) mints
/// and burns. Pausing blocks every balance change and `permit`.
interface IPoints {
    /// @notice Thrown when a transfer or mint involves an account that is not on the transfer
    /// allowlist while transfers are restricted.
    error TransferNotWhitelisted(address account);

    /// @notice Thrown when an allowlist operation names the zero address.
    error ZeroAddress();

    /// @notice Thrown when a mint would push the total supply past `max` (2^248 - 1).
    error SupplyCapExceeded(uint256 supply, uint256 max);

    /// @notice Emitted when `account` was added to (`whitelisted` true) or removed from the
    /// transfer allowlist.
    event TransferWhitelistUpdated(address indexed account, bool whitelisted);

    /// @notice Emitted when the transfer restriction was switched on or off.
    event TransferRestrictionUpdated(bool restricted);

    /// @notice Mints `amount` SP to `to`. Requires MINTER_ROLE; while restricted, `to` must be
    /// on the transfer allowlist.
    function mint(address to, uint256 amount) external;

    /// @notice Burns `amount` SP held by the caller. Requires MINTER_ROLE.
    function burn(uint256 amount) external;

    /// @notice Adds `account` to the transfer allowlist. Requires DEFAULT_ADMIN_ROLE.
    /// @dev Idempotent: adding a listed account changes nothing and emits nothing.
    function addToTransferWhitelist(address account) external;

    /// @notice Removes `account` from the transfer allowlist. Requires DEFAULT_ADMIN_ROLE.
    /// @dev Idempotent: removing an unlisted account changes nothing and emits nothing.
    function removeFromTransferWhitelist(address account) external;

    /// @notice Switches the transfer restriction on or off. Requires DEFAULT_ADMIN_ROLE.
    function setTransferRestricted(bool restricted) external;

    /// @notice Whether `account` is on the transfer allowlist.
    function isTransferWhitelisted(address account) external view returns (bool);

    /// @notice Whether transfers and mints are limited to allowlisted accounts.
    function transferRestricted() external view returns (bool);
}
