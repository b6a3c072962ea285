// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {vm} from "../utils/Cheats.sol";

/// @dev Common bookkeeping of a handler. Every operation calls the system under a prank inside
/// try/catch, so the handler itself never reverts: an outcome is counted as `ok` or `rejected`
/// per operation, and an outcome the ghost model did not predict is recorded as a violation
/// that the suite's invariants report (with the failing sequence printed by the runner).
abstract contract HandlerBase {
    string[] internal opNames;
    mapping(uint256 op => uint256) public okCount;
    mapping(uint256 op => uint256) public rejectedCount;
    /// @notice First unexpected outcome seen, empty while everything matched the model.
    string public violation;
    /// @dev Set while the constructor prepares the starting state: those steps are not counted.
    bool internal booting;

    /// @dev Records an outcome and checks it against the model's prediction.
    function _outcome(uint256 op, bool succeeded, bool predicted) internal {
        _counted(op, succeeded);
        if (succeeded != predicted && bytes(violation).length == 0) {
            violation = string.concat(
                opNames[op],
                succeeded ? ": succeeded, the model predicted a revert" : ": reverted, the model predicted success"
            );
        }
    }

    /// @dev Calls `target` with `data` as `caller`, never reverting; returns what it answered.
    function _as(address caller, address target, bytes memory data) internal returns (bool ok, bytes memory ret) {
        vm.prank(caller);
        (ok, ret) = target.call(data);
    }

    /// @dev One step the model predicts: the call as `caller`, its outcome checked.
    function _step(
        uint256 op,
        address caller,
        address target,
        bytes memory data,
        bool predicted
    ) internal returns (bool ok) {
        (ok, ) = _as(caller, target, data);
        _outcome(op, ok, predicted);
    }

    /// @dev One step the model does not predict: the call as `caller`, only counted.
    function _countedStep(uint256 op, address caller, address target, bytes memory data) internal returns (bool ok) {
        (ok, ) = _as(caller, target, data);
        _counted(op, ok);
    }

    /// @dev Records an outcome the model does not predict (only its count matters).
    function _counted(uint256 op, bool succeeded) internal {
        if (booting) return;
        if (succeeded) ++okCount[op];
        else ++rejectedCount[op];
    }

    function _violate(string memory what) internal {
        if (bytes(violation).length == 0) violation = what;
    }

    /// @notice Steps that succeeded and steps that reverted, over every operation.
    function totals() external view returns (uint256 ok, uint256 rejected) {
        for (uint256 i = 0; i < opNames.length; ++i) {
            ok += okCount[i];
            rejected += rejectedCount[i];
        }
    }

    function opCount() external view returns (uint256) {
        return opNames.length;
    }

    function opName(uint256 op) external view returns (string memory) {
        return opNames[op];
    }

    /// @dev `seed` mapped into [min, max].
    function _bound(uint256 seed, uint256 min, uint256 max) internal pure returns (uint256) {
        return min + (seed % (max - min + 1));
    }
}
