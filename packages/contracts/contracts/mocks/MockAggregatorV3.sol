// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IAggregatorV3} from "../interfaces/IAggregatorV3.sol";

/// @title MockAggregatorV3
/// @notice Settable AggregatorV3 feed for tests and dev chains.
contract MockAggregatorV3 is IAggregatorV3 {
    uint8 public immutable override decimals;
    int256 private _answer;
    uint256 private _updatedAt;
    uint80 private _roundId;
    bool private _reverts;
    bool private _malformed;

    constructor(uint8 decimals_, int256 answer_) {
        decimals = decimals_;
        setAnswer(answer_);
    }

    /// @notice Sets the answer, stamped now.
    function setAnswer(int256 answer_) public {
        setAnswerAt(answer_, block.timestamp);
    }

    /// @notice Sets the answer with an explicit update time.
    function setAnswerAt(int256 answer_, uint256 updatedAt_) public {
        (_answer, _updatedAt) = (answer_, updatedAt_);
        ++_roundId;
    }

    /// @notice Makes `latestRoundData` revert (a broken feed).
    function setReverts(bool reverts_) external {
        _reverts = reverts_;
    }

    /// @notice Makes `latestRoundData` return one word instead of five (a malformed feed).
    function setMalformed(bool malformed_) external {
        _malformed = malformed_;
    }

    /// @inheritdoc IAggregatorV3
    function latestRoundData() external view returns (uint80, int256, uint256, uint256, uint80) {
        // solhint-disable-next-line gas-custom-errors
        require(!_reverts, "feed down");
        if (_malformed) {
            assembly {
                mstore(0, 1)
                return(0, 0x20)
            }
        }
        return (_roundId, _answer, _updatedAt, _updatedAt, _roundId);
    }
}
