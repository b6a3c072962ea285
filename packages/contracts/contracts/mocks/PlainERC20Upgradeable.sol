// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20Upgradeable} from "@openzeppelin/contracts-upgradeable/token/ERC20/ERC20Upgradeable.sol";
import {UUPSUpgradeable} from "@openzeppelin/contracts-upgradeable/proxy/utils/UUPSUpgradeable.sol";
import {OwnableUpgradeable} from "@openzeppelin/contracts-upgradeable/access/OwnableUpgradeable.sol";

/// @title PlainERC20Upgradeable
/// @notice Benchmark floor: a plain OpenZeppelin ERC-20 behind a UUPS proxy, no restrictions.
contract PlainERC20Upgradeable is ERC20Upgradeable, OwnableUpgradeable, UUPSUpgradeable {
    /// @custom:oz-upgrades-unsafe-allow constructor
    constructor() {
        _disableInitializers();
    }

    /// @notice Initializes the token and mints `supply` to `owner_`.
    function initialize(address owner_, uint256 supply) external initializer {
        __ERC20_init("Plain", "PLN");
        __Ownable_init(owner_);
        _mint(owner_, supply);
    }

    function _authorizeUpgrade(address) internal override onlyOwner {}
}
