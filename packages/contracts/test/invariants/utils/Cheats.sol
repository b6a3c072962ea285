// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @dev The few cheatcodes the invariant suites use. forge-std is not installable from the npm
/// registry (its only package there is an old, incomplete copy), so this declares them directly;
/// the signatures are those of the standard cheatcode interface.
interface Vm {
    function prank(address sender) external;
    function warp(uint256 timestamp) external;
    function label(address account, string calldata name) external;
    function writeLine(string calldata path, string calldata data) external;
    function envOr(string calldata name, string calldata defaultValue) external view returns (string memory);
    function toString(uint256 value) external pure returns (string memory);
}

/// @dev Address of the cheatcode handler: keccak256("hevm cheat code") truncated.
Vm constant vm = Vm(address(uint160(uint256(keccak256("hevm cheat code")))));

/// @dev A deterministic labelled address standing for an account of the scenario.
function actor(string memory name) returns (address account) {
    account = address(uint160(uint256(keccak256(bytes(name)))));
    vm.label(account, name);
}
