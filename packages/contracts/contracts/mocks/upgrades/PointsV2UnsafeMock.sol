// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ProgramUpgradeable} from "../../common/ProgramUpgradeable.sol";
import {ERC20PermitUpgradeable} from "@openzeppelin/contracts-upgradeable/token/ERC20/extensions/ERC20PermitUpgradeable.sol";

/// @title PointsV2UnsafeMock
/// @notice Reorders the Points namespaced storage: the upgrade tooling must refuse it.
/// @dev Has no initializer of its own (allowed below) so the tooling refuses it for its
/// storage layout alone.
/// @custom:oz-upgrades-from Points
/// @custom:oz-upgrades-unsafe-allow missing-initializer
contract PointsV2UnsafeMock is ProgramUpgradeable, ERC20PermitUpgradeable {
    struct Holder {
        uint248 balance;
        bool whitelisted;
    }

    /// @custom:storage-location erc7201:points.storage.Points
    struct PointsStorage {
        bool transferRestricted;
        uint256 totalSupply;
        mapping(address account => Holder) holders;
    }

    /// @notice Reads the reordered flag, so the struct is used.
    function restrictedFlag() external view returns (bool) {
        PointsStorage storage $;
        assembly {
            $.slot := 0x2157921a61e607371f000c8e3bfc192e9683b078a1d4006fb9b0ecec35ad6100
        }
        return $.transferRestricted;
    }
}
