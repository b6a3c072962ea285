// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @title IOracle
/// @notice Per-asset price feeds with a heartbeat and a peg band. Prices have 18 decimals.
interface IOracle {
    /// @notice A feed's configuration for one asset.
    /// @param feed AggregatorV3-style feed.
    /// @param heartbeat Seconds after which an answer is stale.
    /// @param feedDecimals Decimals of the feed's answer, read when configured.
    /// @param lowerPeg Lowest 18-decimal price still pegged (inclusive).
    /// @param upperPeg Highest 18-decimal price still pegged (inclusive).
    struct Feed {
        address feed;
        uint32 heartbeat;
        uint8 feedDecimals;
        uint128 lowerPeg;
        uint128 upperPeg;
    }

    /// @notice A feed to configure at initialization.
    struct FeedInit {
        address asset;
        address feed;
        uint32 heartbeat;
        uint128 lowerPeg;
        uint128 upperPeg;
    }

    /// @notice Thrown when an asset has no feed configured.
    error FeedNotConfigured(address asset);

    /// @notice Thrown when a feed answers zero or a negative price.
    error InvalidPrice(address asset, int256 answer);

    /// @notice Thrown when a feed's latest answer is older than its heartbeat, or stamped in
    /// the future (a clock the Oracle cannot check is not fresh).
    error StalePrice(address asset, uint256 updatedAt, uint256 heartbeat);

    /// @notice Thrown when a feed's `latestRoundData` returns fewer than its five words.
    error MalformedFeedResponse(address asset, address feed);

    /// @notice Thrown when a peg band is empty or inverted (lower must be > 0 and <= upper).
    error InvalidPegBand(uint256 lowerPeg, uint256 upperPeg);

    /// @notice Thrown when a heartbeat is zero.
    error InvalidHeartbeat(uint256 heartbeat);

    /// @notice Thrown when a feed reports more than 36 decimals.
    error InvalidFeedDecimals(uint8 decimals);

    /// @notice Thrown when an asset or feed argument is the zero address.
    error ZeroAddress();

    /// @notice Thrown when the L2 sequencer-uptime feed says the sequencer is down, or cannot be
    /// read (a failing call, too few words, or a round that never started).
    error SequencerDown(address sequencerFeed);

    /// @notice Thrown when the sequencer came back up less than the grace period ago: prices
    /// may still be stale from the outage until `readyAt`.
    error SequencerGracePeriodNotOver(uint256 readyAt);

    /// @notice Emitted when the feed of `asset` was set.
    event FeedConfigured(
        address indexed asset,
        address indexed feed,
        uint256 heartbeat,
        uint256 lowerPeg,
        uint256 upperPeg
    );

    /// @notice Emitted when the feed of `asset` was removed.
    event FeedRemoved(address indexed asset);

    /// @notice Emitted when the L2 sequencer-uptime feed was set (zero: none) with its grace period.
    event SequencerFeedUpdated(address indexed sequencerFeed, uint256 gracePeriod);

    /// @notice Sets the feed of `asset`. Requires DEFAULT_ADMIN_ROLE.
    function setFeed(address asset, address feed, uint32 heartbeat, uint128 lowerPeg, uint128 upperPeg) external;

    /// @notice Removes the feed of `asset`. Requires DEFAULT_ADMIN_ROLE.
    function removeFeed(address asset) external;

    /// @notice Sets the optional L2 sequencer-uptime feed (Chainlink's: answer 0 = up, 1 = down;
    /// `startedAt` = when that status began) and the grace period after a restart; zero `feed`
    /// removes it. Requires DEFAULT_ADMIN_ROLE.
    function setSequencerFeed(address feed, uint32 gracePeriod) external;

    /// @notice The L2 sequencer-uptime feed (zero: none) and its grace period.
    function sequencerFeed() external view returns (address feed, uint32 gracePeriod);

    /// @notice The 18-decimal price of `asset`. Reverts when unconfigured, non-positive, stale,
    /// while the Oracle is paused, or while a configured sequencer is down or in its grace period.
    function getPrice(address asset) external view returns (uint256);

    /// @notice Whether `asset` has a fresh, positive price inside its peg band. Never reverts,
    /// so a missing or stale feed, a paused Oracle, or a sequencer down or in its grace period,
    /// reads as "not pegged" (which turns basket mode on).
    function isPegged(address asset) external view returns (bool);

    /// @notice The feed configuration of `asset` (zero when unconfigured).
    function feedOf(address asset) external view returns (Feed memory);
}
