// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @title IAggregatorV3
/// @notice The subset of Chainlink's AggregatorV3Interface the Oracle reads.
interface IAggregatorV3 {
    /// @notice Decimals of the answer.
    function decimals() external view returns (uint8);

    /// @notice The latest round: its answer and when it was updated.
    function latestRoundData()
        external
        view
        returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound);
}
