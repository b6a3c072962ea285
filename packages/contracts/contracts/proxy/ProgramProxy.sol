// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC1967Proxy} from "@openzeppelin/contracts/proxy/ERC1967/ERC1967Proxy.sol";

/// @title ProgramProxy
/// @notice The ERC-1967 proxy of every program contract.
/// @dev Created without init data so its CREATE2 address depends only on the implementation
/// and the salt: the contracts of a program reference each other in their initializers, so
/// addresses must be known before any initializer runs. This is only safe because
/// ProgramFactory creates and initializes every proxy in one transaction; nothing else may
/// leave one uninitialized.
contract ProgramProxy is ERC1967Proxy {
    constructor(address implementation) ERC1967Proxy(implementation, "") {}

    function _unsafeAllowUninitialized() internal pure override returns (bool) {
        return true;
    }
}
