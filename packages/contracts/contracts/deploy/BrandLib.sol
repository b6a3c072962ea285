// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IProgramFactory} from "../interfaces/IProgramFactory.sol";

/// @title BrandLib
/// @notice Brand names: lowercase ASCII letters and digits, 1 to 32 characters.
library BrandLib {
    uint256 internal constant MAX_LENGTH = 32;

    /// @dev Reverts {IProgramFactory.InvalidBrand} unless valid; returns the brand's hash.
    function validate(string calldata brand) internal pure returns (bytes32) {
        bytes calldata b = bytes(brand);
        if (b.length == 0 || b.length > MAX_LENGTH) revert IProgramFactory.InvalidBrand(brand);
        for (uint256 i = 0; i < b.length; ++i) {
            bytes1 c = b[i];
            bool lower = c >= 0x61 && c <= 0x7a;
            bool digit = c >= 0x30 && c <= 0x39;
            if (!lower && !digit) revert IProgramFactory.InvalidBrand(brand);
        }
        return keccak256(b);
    }
}
