// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ProgramUpgradeable} from "../common/ProgramUpgradeable.sol";
import {IOracle} from "../interfaces/IOracle.sol";
import {IAggregatorV3} from "../interfaces/IAggregatorV3.sol";

/// @title Oracle
/// @notice Prices collateral assets from AggregatorV3-style feeds. See {IOracle}.
/// @dev A paused Oracle vouches for no price: `getPrice` reverts and `isPegged` is false, so
/// pausing it is the emergency lever that closes minting and puts the Factory in basket mode.
contract Oracle is ProgramUpgradeable, IOracle {
    /// @custom:storage-location erc7201:points.storage.Oracle
    struct OracleStorage {
        mapping(address asset => Feed) feeds;
        // Appended in 0.2: the optional L2 sequencer-uptime feed and its grace period.
        address sequencerFeed;
        uint32 sequencerGracePeriod;
    }

    // keccak256(abi.encode(uint256(keccak256("points.storage.Oracle")) - 1)) & ~bytes32(uint256(0xff))
    bytes32 private constant ORACLE_STORAGE = 0x04184dd67e7c6b44cfd3e02d1e52869e70b547ced1540b492ad9b1983c551600;

    uint8 private constant MAX_FEED_DECIMALS = 36;

    /// @notice Initializes the oracle with `admin` as its single admin and its first `feeds`,
    /// so a program is complete at birth without the deployer ever being an admin.
    function initialize(address admin, uint48 adminDelay, FeedInit[] calldata feeds) external initializer {
        __Program_init(admin, adminDelay);
        for (uint256 i = 0; i < feeds.length; ++i) {
            FeedInit calldata f = feeds[i];
            _setFeed(f.asset, f.feed, f.heartbeat, f.lowerPeg, f.upperPeg);
        }
    }

    /// @inheritdoc IOracle
    function setFeed(
        address asset,
        address feed,
        uint32 heartbeat,
        uint128 lowerPeg,
        uint128 upperPeg
    ) external onlyRole(DEFAULT_ADMIN_ROLE) {
        _setFeed(asset, feed, heartbeat, lowerPeg, upperPeg);
    }

    /// @inheritdoc IOracle
    function removeFeed(address asset) external onlyRole(DEFAULT_ADMIN_ROLE) {
        OracleStorage storage $ = _getOracleStorage();
        if ($.feeds[asset].feed == address(0)) revert FeedNotConfigured(asset);
        delete $.feeds[asset];
        emit FeedRemoved(asset);
    }

    /// @inheritdoc IOracle
    function setSequencerFeed(address feed, uint32 gracePeriod) external onlyRole(DEFAULT_ADMIN_ROLE) {
        OracleStorage storage $ = _getOracleStorage();
        ($.sequencerFeed, $.sequencerGracePeriod) = (feed, gracePeriod);
        emit SequencerFeedUpdated(feed, gracePeriod);
    }

    /// @inheritdoc IOracle
    function sequencerFeed() external view returns (address feed, uint32 gracePeriod) {
        OracleStorage storage $ = _getOracleStorage();
        return ($.sequencerFeed, $.sequencerGracePeriod);
    }

    function _setFeed(address asset, address feed, uint32 heartbeat, uint128 lowerPeg, uint128 upperPeg) private {
        if (asset == address(0) || feed == address(0)) revert ZeroAddress();
        if (heartbeat == 0) revert InvalidHeartbeat(heartbeat);
        if (lowerPeg == 0 || lowerPeg > upperPeg) revert InvalidPegBand(lowerPeg, upperPeg);
        uint8 feedDecimals = IAggregatorV3(feed).decimals();
        if (feedDecimals > MAX_FEED_DECIMALS) revert InvalidFeedDecimals(feedDecimals);
        _getOracleStorage().feeds[asset] = Feed(feed, heartbeat, feedDecimals, lowerPeg, upperPeg);
        emit FeedConfigured(asset, feed, heartbeat, lowerPeg, upperPeg);
    }

    /// @inheritdoc IOracle
    function getPrice(address asset) external view whenNotPaused returns (uint256) {
        OracleStorage storage $ = _getOracleStorage();
        Feed memory config = $.feeds[asset];
        if (config.feed == address(0)) revert FeedNotConfigured(asset);
        (bool up, uint256 readyAt) = _sequencerUp($);
        if (!up) revert SequencerDown($.sequencerFeed);
        // Time on purpose (delays, staleness, grace periods of minutes to days): see README.md#forge-lint.
        // forge-lint: disable-next-line(block-timestamp)
        if (block.timestamp < readyAt) revert SequencerGracePeriodNotOver(readyAt);
        (bool success, bytes memory data) = _latestRoundData(config.feed);
        if (!success) {
            assembly {
                revert(add(data, 0x20), mload(data))
            }
        }
        if (data.length < 160) revert MalformedFeedResponse(asset, config.feed);
        (int256 answer, , uint256 updatedAt) = _decode(data);
        if (answer <= 0) revert InvalidPrice(asset, answer);
        if (_isStale(updatedAt, config.heartbeat)) revert StalePrice(asset, updatedAt, config.heartbeat);
        // Cannot truncate: answer > 0, checked above.
        // forge-lint: disable-next-line(unsafe-typecast)
        (bool fits, uint256 price) = _normalise(uint256(answer), config.feedDecimals);
        if (!fits) revert InvalidPrice(asset, answer);
        return price;
    }

    /// @inheritdoc IOracle
    function isPegged(address asset) external view returns (bool) {
        if (paused()) return false;
        OracleStorage storage $ = _getOracleStorage();
        Feed memory config = $.feeds[asset];
        if (config.feed == address(0)) return false;
        (bool up, uint256 readyAt) = _sequencerUp($);
        // Time on purpose (delays, staleness, grace periods of minutes to days): see README.md#forge-lint.
        // forge-lint: disable-next-line(block-timestamp)
        if (!up || block.timestamp < readyAt) return false;
        (bool success, bytes memory data) = _latestRoundData(config.feed);
        if (!success || data.length < 160) return false;
        (int256 answer, , uint256 updatedAt) = _decode(data);
        if (answer <= 0 || _isStale(updatedAt, config.heartbeat)) return false;
        // Cannot truncate: answer > 0, checked above.
        // forge-lint: disable-next-line(unsafe-typecast)
        (bool fits, uint256 price) = _normalise(uint256(answer), config.feedDecimals);
        return fits && price >= config.lowerPeg && price <= config.upperPeg;
    }

    /// @inheritdoc IOracle
    function feedOf(address asset) external view returns (Feed memory) {
        return _getOracleStorage().feeds[asset];
    }

    /// @dev A low-level call: a feed answering too few words (or words out of their declared
    /// ranges) would make a typed call revert while decoding, even inside try/catch, and so
    /// break `isPegged`, which the Factory reads on every redemption.
    function _latestRoundData(address feed) private view returns (bool success, bytes memory data) {
        (success, data) = feed.staticcall(abi.encodeCall(IAggregatorV3.latestRoundData, ()));
    }

    /// @dev Every word read as a full-width type, so no value can fail the decoder.
    function _decode(bytes memory data) private pure returns (int256 answer, uint256 startedAt, uint256 updatedAt) {
        (, answer, startedAt, updatedAt, ) = abi.decode(data, (uint256, int256, uint256, uint256, uint256));
    }

    /// @dev Chainlink's L2 sequencer-uptime pattern: up when the feed answers 0, usable once the
    /// grace period since it came up (`startedAt`) is over. No feed: always up. A feed that
    /// cannot be read, or a round that never started, counts as down.
    function _sequencerUp(OracleStorage storage $) private view returns (bool up, uint256 readyAt) {
        address feed = $.sequencerFeed;
        if (feed == address(0)) return (true, 0);
        (bool success, bytes memory data) = _latestRoundData(feed);
        if (!success || data.length < 160) return (false, 0);
        (int256 answer, uint256 startedAt, ) = _decode(data);
        if (answer != 0 || startedAt == 0) return (false, 0);
        // A start near 2^256 (a broken feed) never ends its grace period rather than overflowing.
        uint256 grace = $.sequencerGracePeriod;
        if (startedAt > type(uint256).max - grace) return (true, type(uint256).max);
        return (true, startedAt + grace);
    }

    /// @dev An answer stamped in the future is not fresh: the feed's clock cannot be trusted.
    function _isStale(uint256 updatedAt, uint256 heartbeat) private view returns (bool) {
        // Time on purpose (delays, staleness, grace periods of minutes to days): see README.md#forge-lint.
        // forge-lint: disable-next-line(block-timestamp)
        return updatedAt > block.timestamp || block.timestamp - updatedAt > heartbeat;
    }

    /// @dev `fits` is false when the answer scaled to 18 decimals exceeds uint256 (a feed answering
    /// near 2^255): such a price is no price, and reading it must not revert `isPegged`.
    function _normalise(uint256 answer, uint8 feedDecimals) private pure returns (bool fits, uint256 price) {
        if (feedDecimals > 18) return (true, answer / 10 ** (feedDecimals - 18));
        uint256 scale = 10 ** (18 - feedDecimals);
        if (answer > type(uint256).max / scale) return (false, 0);
        return (true, answer * scale);
    }

    function _getOracleStorage() private pure returns (OracleStorage storage $) {
        assembly {
            $.slot := ORACLE_STORAGE
        }
    }
}
