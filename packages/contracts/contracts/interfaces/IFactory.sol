// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @title IFactory
/// @notice Mints SP against collateral and redeems it through delayed requests. Holds the mint
/// and redeem allowlists. One CollateralVault per registered asset.
/// @dev Fee-on-transfer and rebasing assets are unsupported: a mint whose pull delivers less
/// than asked reverts with {UnsupportedAssetTransfer}.
interface IFactory {
    /// @notice Status of a redemption request.
    enum RedeemStatus {
        None,
        Pending,
        Finalized,
        Cancelled,
        Rejected
    }

    /// @notice A redemption request, as returned by {getRedeemRequest}.
    /// @param redeemFeeBps The redeem fee in force when the request was made; a later fee rise
    /// never applies to it.
    struct RedeemRequest {
        address requester;
        uint64 createdAt;
        RedeemStatus status;
        bool expectedBasketMode;
        uint16 redeemFeeBps;
        address asset;
        address to;
        uint256 amount;
    }

    /// @notice Everything the Factory is initialized with.
    /// @param admin Single DEFAULT_ADMIN_ROLE holder; also gets MANAGER_ROLE and PAUSER_ROLE.
    /// @param executor Gets EXECUTOR_ROLE (finalize and reject redemptions) and nothing else;
    /// zero for none. MANAGER_ROLE administers EXECUTOR_ROLE (grants and revokes it).
    /// @param oracle Optional (zero for none: every asset is priced 1.0).
    /// @param asset First collateral asset; `vault` is its CollateralVault.
    struct InitParams {
        address admin;
        uint48 adminDelay;
        address points;
        address executor;
        address oracle;
        address asset;
        address vault;
        address feeReceiver;
        uint16 mintFeeBps;
        uint16 redeemFeeBps;
        uint64 redeemDelay;
        /// The release's CollateralVault implementation: {createVault} puts proxies over it.
        address vaultImplementation;
    }

    /// @notice Thrown when a mint caller is not on the mint allowlist.
    error NotMintWhitelisted(address account);
    /// @notice Thrown when a redeem caller is not on the redeem allowlist.
    error NotRedeemWhitelisted(address account);
    /// @notice Thrown when an asset has no CollateralVault registered.
    error AssetNotRegistered(address asset);
    /// @notice Thrown when registering an asset that already has a vault.
    error AssetAlreadyRegistered(address asset);
    /// @notice Thrown when a vault is not over `asset` or does not name this Factory, or (after
    /// birth) is not the CollateralVault this Factory created for `asset` with {createVault}.
    error InvalidVault(address vault, address asset);
    /// @notice Thrown when {createVault} runs on a Factory that does not know its release's
    /// CollateralVault implementation (one initialized before it was recorded).
    error VaultImplementationUnknown();
    /// @notice Thrown when {initializeVaultImplementation} names a ProgramFactory whose release
    /// Factory implementation is not the one this proxy now runs.
    error ForeignRelease(address programFactory);
    /// @notice Thrown when {createVault} already created the vault of `asset`, at `vault`.
    error VaultAlreadyCreated(address asset, address vault);
    /// @notice Thrown when an asset has more than 18 decimals.
    error UnsupportedDecimals(address asset, uint8 decimals);
    /// @notice Thrown when registering past the maximum number of assets.
    error TooManyAssets(uint256 max);
    /// @notice Thrown when minting an asset whose price is outside its peg band or stale.
    error AssetNotPegged(address asset);
    /// @notice Thrown when minting while basket mode is on.
    error BasketModeActive();
    /// @notice Thrown when the basket mode differs from what the caller expected.
    error UnexpectedBasketMode(bool actual);
    /// @notice Thrown when pulling `expected` of `asset` delivered `received` (fee-on-transfer).
    error UnsupportedAssetTransfer(address asset, uint256 expected, uint256 received);
    /// @notice Thrown when an amount is zero.
    error ZeroAmount();
    /// @notice Thrown when an amount rounds down to nothing after price and fees.
    error AmountTooSmall(uint256 amount);
    /// @notice Thrown when an address argument is the zero address.
    error ZeroAddress();
    /// @notice Thrown when a fee is above {MAX_FEE_BPS}.
    error FeeTooHigh(uint256 feeBps, uint256 maxBps);
    /// @notice Thrown when a redeem delay is above {MAX_REDEEM_DELAY}.
    error RedeemDelayTooLong(uint256 delay, uint256 max);
    /// @notice Thrown when a request id does not exist.
    error RedeemRequestNotFound(uint256 requestId);
    /// @notice Thrown when a request is no longer pending.
    error RedeemRequestNotPending(uint256 requestId, RedeemStatus status);
    /// @notice Thrown when someone other than the requester (or, to finalize, an executor)
    /// acts on a request.
    error NotRequester(uint256 requestId, address caller);
    /// @notice Thrown when the requester finalizes before `readyAt`.
    error RedeemDelayNotElapsed(uint256 requestId, uint256 readyAt);
    /// @notice Thrown when a fee is on and the fee receiver is not on the Points transfer
    /// allowlist while transfers are restricted (every mint and redemption would revert).
    error FeeReceiverNotWhitelisted(address feeReceiver);
    /// @notice Thrown when the vaults hold no collateral to pay a basket redemption.
    error NoCollateral();
    /// @notice Thrown when a mint or redemption would move collateral through a paused
    /// CollateralVault; a basket redemption refuses if any of its vaults is paused.
    error CollateralVaultPaused(address vault);
    /// @notice Thrown when the Factory's redemption code is called directly instead of by
    /// delegatecall from a Factory.
    error DelegateCallOnly();
    /// @notice Thrown when registering an asset on a program with an Oracle that has no feed
    /// for it (it would turn basket mode on at once).
    error AssetWithoutFeed(address asset);
    /// @notice Thrown when removing an asset whose vault still holds the Factory's shares.
    error VaultNotEmpty(address asset, address vault, uint256 shares);

    /// @notice Emitted when `account` was added to or removed from the mint allowlist.
    event MintWhitelistUpdated(address indexed account, bool whitelisted);
    /// @notice Emitted when `account` was added to or removed from the redeem allowlist.
    event RedeemWhitelistUpdated(address indexed account, bool whitelisted);
    /// @notice Emitted when `asset` was registered with its `vault`.
    event AssetRegistered(address indexed asset, address indexed vault);
    /// @notice Emitted when `asset` and its empty `vault` were removed.
    event AssetRemoved(address indexed asset, address indexed vault);
    /// @notice Emitted when SP was minted against `assetAmount` of `asset`.
    event Minted(
        address indexed caller,
        address indexed asset,
        address indexed receiver,
        uint256 assetAmount,
        uint256 spMinted,
        uint256 fee
    );
    /// @notice Emitted when a redemption request was created and its SP escrowed.
    event RedeemRequested(
        uint256 indexed requestId,
        address indexed requester,
        address indexed asset,
        address to,
        uint256 amount,
        bool expectedBasketMode
    );
    /// @notice Emitted when the requester cancelled a request; the SP went back.
    event RedeemCancelled(uint256 indexed requestId);
    /// @notice Emitted when an executor rejected a request; the SP went back.
    event RedeemRejected(uint256 indexed requestId, address indexed executor);
    /// @notice Emitted when a request was finalized: `spBurned` burned, `fee` SP to the fee receiver.
    event RedeemFinalized(
        uint256 indexed requestId,
        address indexed caller,
        uint256 spBurned,
        uint256 fee,
        bool basketMode
    );
    /// @notice Emitted when a finalized request's `fee` was burned instead of paid, because
    /// `feeReceiver` could no longer receive SP (docs/rules.md#redemptions).
    event RedeemFeeBurned(uint256 indexed requestId, address indexed feeReceiver, uint256 fee);
    /// @notice Emitted when {finalizeRedeemBatch} left a request as it was because finalizing it
    /// reverted; `reason` is the revert data (a custom error of this interface).
    event RedeemFinalizeSkipped(uint256 indexed requestId, bytes reason);
    /// @notice Emitted for each asset paid out by a finalized request.
    event CollateralPaid(uint256 indexed requestId, address indexed asset, address indexed to, uint256 amount);
    /// @notice Emitted when the manager forced basket mode on or off.
    event BasketModeForced(bool forced);
    /// @notice Emitted when the redeem delay was set.
    event RedeemDelayUpdated(uint64 delay);
    /// @notice Emitted when the fees were set.
    event FeesUpdated(uint16 mintFeeBps, uint16 redeemFeeBps);
    /// @notice Emitted when the fee receiver was set.
    event FeeReceiverUpdated(address indexed feeReceiver);
    /// @notice Emitted when the Factory created `vault`, a CollateralVault proxy over `asset`.
    event CollateralVaultCreated(address indexed asset, address indexed vault);
    /// @notice Emitted when an upgrade recorded `implementation`, the CollateralVault of the
    /// release of `programFactory`, for {createVault}.
    event VaultImplementationRecorded(address indexed programFactory, address indexed implementation);
    /// @notice Emitted when the oracle was set (zero: none).
    event OracleUpdated(address indexed oracle);

    /// @notice Mints SP for `amount` of `asset` to `receiver`. Caller on the mint allowlist.
    /// @return minted SP minted to `receiver` (after the mint fee).
    function mint(address asset, uint256 amount, address receiver) external returns (uint256 minted);

    /// @notice Escrows `amount` SP of the caller and opens a redemption request paying `to`.
    /// Caller on the redeem allowlist; needs an SP allowance for the Factory.
    function requestRedeem(
        address asset,
        address to,
        uint256 amount,
        bool expectedBasketMode
    ) external returns (uint256 requestId);

    /// @notice Cancels a pending request and returns its SP. The requester only.
    function cancelRedeem(uint256 requestId) external;

    /// @notice Burns a pending request's SP and pays collateral to its `to`, less the redeem fee.
    /// EXECUTOR_ROLE at any time, or the requester once the redeem delay in force at the request
    /// has passed ({redeemReadyAt}). A fee receiver that can no longer receive SP gets nothing:
    /// the fee is burned. A requester that can no longer receive SP (so cannot cancel) may
    /// finalize even after the basket mode changed.
    function finalizeRedeem(uint256 requestId) external;

    /// @notice Finalizes each of `requestIds` as {finalizeRedeem} by EXECUTOR_ROLE would, in one
    /// transaction; a request whose finalization reverts is skipped with {RedeemFinalizeSkipped}
    /// so one bad request cannot hold back the others. Requires EXECUTOR_ROLE.
    function finalizeRedeemBatch(uint256[] calldata requestIds) external;

    /// @notice Rejects a pending request and returns its SP. Requires EXECUTOR_ROLE.
    function rejectRedeem(uint256 requestId) external;

    /// @notice Adds `account` to the mint allowlist. Requires MANAGER_ROLE.
    function addToMintWhitelist(address account) external;

    /// @notice Removes `account` from the mint allowlist. Requires MANAGER_ROLE.
    function removeFromMintWhitelist(address account) external;

    /// @notice Adds `account` to the redeem allowlist. Requires MANAGER_ROLE.
    function addToRedeemWhitelist(address account) external;

    /// @notice Removes `account` from the redeem allowlist. Requires MANAGER_ROLE.
    function removeFromRedeemWhitelist(address account) external;

    /// @notice Registers `asset` with its CollateralVault, which must be the one {createVault}
    /// made for it (docs/rules.md#factory). Requires DEFAULT_ADMIN_ROLE. With an Oracle, the
    /// asset must already have a feed.
    function registerAsset(address asset, address vault) external;

    /// @notice Creates and initializes, in one transaction, a proxy of the release's
    /// CollateralVault over `asset` for this Factory, at {predictVault}; the program's admin is
    /// its admin. Requires DEFAULT_ADMIN_ROLE.
    function createVault(address asset, string calldata name, string calldata symbol) external returns (address);

    /// @notice For a Factory initialized before {InitParams.vaultImplementation} existed: records
    /// the CollateralVault implementation of the release this proxy was upgraded to, read from
    /// that release's `programFactory`, which must name the implementation this proxy now runs
    /// as its Factory. Passed to upgradeToAndCall by the upgrade; once per proxy (reinitializer
    /// 2); requires DEFAULT_ADMIN_ROLE.
    function initializeVaultImplementation(address programFactory) external;

    /// @notice Where {createVault} puts the vault of `asset`.
    function predictVault(address asset) external view returns (address);

    /// @notice Removes `asset`, whose vault must hold none of the Factory's shares. Pending
    /// single-asset requests for it can then only be cancelled or rejected. Requires
    /// DEFAULT_ADMIN_ROLE.
    function removeAsset(address asset) external;

    /// @notice Forces basket mode on or off. Requires MANAGER_ROLE.
    function setBasketModeForced(bool forced) external;

    /// @notice Sets the delay after which a requester may finalize. Requires MANAGER_ROLE.
    function setRedeemDelay(uint64 delay) external;

    /// @notice Sets mint and redeem fees in basis points. Requires DEFAULT_ADMIN_ROLE.
    function setFees(uint16 mintFeeBps, uint16 redeemFeeBps) external;

    /// @notice Sets who receives fees (must be on the Points transfer allowlist while
    /// restricted). Requires DEFAULT_ADMIN_ROLE.
    function setFeeReceiver(address feeReceiver) external;

    /// @notice Sets the oracle (zero: none, every asset priced 1.0). Requires DEFAULT_ADMIN_ROLE.
    function setOracle(address oracle) external;

    /// @notice A redemption request. Reverts {RedeemRequestNotFound} for an unknown id.
    function getRedeemRequest(uint256 requestId) external view returns (RedeemRequest memory);

    /// @notice When the requester may finalize a request itself: its creation time plus the
    /// redeem delay in force then.
    function redeemReadyAt(uint256 requestId) external view returns (uint256);

    /// @notice Whether basket mode is on: forced, or any asset out of peg or stale.
    function isBasketMode() external view returns (bool);

    /// @notice Whether the manager forced basket mode.
    function basketModeForced() external view returns (bool);

    /// @notice Registered collateral assets, in registration order.
    function assets() external view returns (address[] memory);

    /// @notice The CollateralVault of `asset` (zero when unregistered).
    function vaultOf(address asset) external view returns (address);

    /// @notice Whether `account` is on the mint allowlist.
    function isMintWhitelisted(address account) external view returns (bool);

    /// @notice Whether `account` is on the redeem allowlist.
    function isRedeemWhitelisted(address account) external view returns (bool);

    /// @notice The SP token.
    function points() external view returns (address);

    /// @notice The oracle (zero when none).
    function oracle() external view returns (address);

    /// @notice Mint fee in basis points.
    function mintFeeBps() external view returns (uint16);

    /// @notice Redeem fee in basis points.
    function redeemFeeBps() external view returns (uint16);

    /// @notice Receiver of fees.
    function feeReceiver() external view returns (address);

    /// @notice Seconds after which a requester may finalize their own request.
    function redeemDelay() external view returns (uint64);

    /// @notice Number of redemption requests ever created (ids run from 1 to this).
    function redeemRequestCount() external view returns (uint256);
}
