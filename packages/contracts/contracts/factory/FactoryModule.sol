// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {FactoryState} from "./FactoryState.sol";
import {IFactory} from "../interfaces/IFactory.sol";

/// @title FactoryModule
/// @notice Code the Factory keeps out of its own bytecode to stay under the contract size
/// limit, split by responsibility. Each Factory implementation creates its modules in its
/// constructor and reaches them by delegatecall, so their code runs in the Factory proxy's
/// context. A module holds no authority and no state of its own; the Factory checks roles,
/// pause and reentrancy first.
abstract contract FactoryModule is FactoryState {
    /// @dev This module's own code address, for a module that calls its own code per item.
    /// Immutable by design: a module is never a proxy's implementation, only code the Factory
    /// delegatecalls, so the value must be the module's own address, baked into its code.
    /// @custom:oz-upgrades-unsafe-allow state-variable-immutable
    address internal immutable _self = address(this);

    /// @dev Called directly, a module would only touch its own empty storage; refuse anyway
    /// so nobody mistakes it for a Factory.
    modifier onlyDelegateCall() {
        if (address(this) == _self) revert IFactory.DelegateCallOnly();
        _;
    }
}
