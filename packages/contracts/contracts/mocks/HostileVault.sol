// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @title HostileVault
/// @notice Test double of an attacker's "vault": it reports the asset and Factory a
/// CollateralVault would, and nothing else about it can be trusted.
contract HostileVault {
    /// @notice The asset it claims to hold.
    address public immutable asset;
    /// @notice The Factory it claims to serve.
    address public immutable factory;

    constructor(address asset_, address factory_) {
        (asset, factory) = (asset_, factory_);
    }
}
