// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";

/// @title CollateralMath
/// @notice Decimal normalisation, pricing and fees for the Factory. Every rounding favours
/// the protocol: users receive rounded-down amounts, fees round up.
library CollateralMath {
    uint256 internal constant ONE = 1e18;
    uint256 internal constant BPS = 10_000;

    /// @dev `amount` of an asset with `decimals` (<= 18) expressed with 18 decimals.
    function normalise(uint256 amount, uint8 decimals) internal pure returns (uint256) {
        return amount * 10 ** (18 - decimals);
    }

    /// @dev An 18-decimal amount in an asset's units, rounded down.
    function denormaliseDown(uint256 amount, uint8 decimals) internal pure returns (uint256) {
        return amount / 10 ** (18 - decimals);
    }

    /// @dev SP for `normalised` collateral at `price`; a price above 1.0 counts as 1.0, so a
    /// mint never creates more SP than the collateral is worth at par.
    function spForCollateral(uint256 normalised, uint256 price) internal pure returns (uint256) {
        return Math.mulDiv(normalised, Math.min(price, ONE), ONE, Math.Rounding.Floor);
    }

    /// @dev Normalised collateral for `sp` at `price`; a price below 1.0 counts as 1.0, so a
    /// redemption never takes more collateral than the SP is worth at par.
    function collateralForSp(uint256 sp, uint256 price) internal pure returns (uint256) {
        return Math.mulDiv(sp, ONE, Math.max(price, ONE), Math.Rounding.Floor);
    }

    /// @dev Fee of `bps` on `amount`, rounded up.
    function fee(uint256 amount, uint256 bps) internal pure returns (uint256) {
        return Math.mulDiv(amount, bps, BPS, Math.Rounding.Ceil);
    }
}
