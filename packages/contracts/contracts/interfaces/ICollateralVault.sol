// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @title ICollateralVault
/// @notice ERC-4626 vault over one collateral asset. Only the program's Factory deposits and
/// withdraws; shares cannot be transferred. Pausable. A share is one unit of the asset:
/// assets sent to the vault without a deposit are never claimable by anyone.
interface ICollateralVault {
    /// @notice Thrown when anyone but the Factory deposits, mints, withdraws or redeems.
    error CallerNotFactory(address caller);

    /// @notice Thrown when vault shares would move between two accounts.
    error SharesNonTransferable();

    /// @notice Thrown when an initializer argument is the zero address.
    error ZeroAddress();

    /// @notice The Factory allowed to move funds.
    function factory() external view returns (address);
}
