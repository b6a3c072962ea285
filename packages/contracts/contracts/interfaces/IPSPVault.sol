// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @title IPSPVault
/// @notice Pending points (pSP): a campaign-scoped ledger backed one-to-one by SP held in this
/// vault. pSP is issued under a campaign's budget, then settled into SP for an allowlisted
/// receiver or expired back into the budget. pSP never expires by itself.
/// @dev Accounting invariant: SP held == sum over campaigns of (available + outstanding) +
/// unallocated. Pausing blocks everything that moves SP or pSP (create, fund, close, mint,
/// settle, expire, transfer); configuration still works.
interface IPSPVault {
    /// @notice Lifecycle of a campaign: Active <-> Paused, Active/Paused -> Closed (terminal).
    enum CampaignStatus {
        None,
        Active,
        Paused,
        Closed
    }

    /// @notice A campaign as returned by {getCampaign}.
    /// @param budget SP ever allocated to the campaign (creation plus top-ups).
    /// @param available SP that may still be issued as pSP.
    /// @param outstanding pSP issued and neither settled nor expired.
    struct Campaign {
        uint256 budget;
        uint256 available;
        uint256 outstanding;
        address creator;
        CampaignStatus status;
        string metadata;
    }

    /// @notice Thrown when the vault's campaign module is called directly instead of by
    /// delegatecall from a PSPVault.
    error DelegateCallOnly();
    /// @notice Thrown when a campaign id is zero.
    error InvalidCampaignId();
    /// @notice Thrown when creating a campaign whose id is taken.
    error CampaignAlreadyExists(bytes32 campaignId);
    /// @notice Thrown when a campaign id is unknown.
    error CampaignNotFound(bytes32 campaignId);
    /// @notice Thrown when issuing into a campaign that is not Active.
    error CampaignNotActive(bytes32 campaignId, CampaignStatus status);
    /// @notice Thrown when funding, or moving the status of, a Closed campaign, or when a
    /// status change does not follow Active <-> Paused -> Closed.
    error InvalidCampaignStatus(bytes32 campaignId, CampaignStatus status);
    /// @notice Thrown when the caller holds neither MANAGER_ROLE nor `role`.
    error CallerNotAuthorized(address caller, bytes32 role);
    /// @notice Thrown when the caller is neither a MANAGER_ROLE holder nor an admin of the campaign.
    error NotCampaignAdmin(bytes32 campaignId, address caller);
    /// @notice Thrown when the caller is neither a MANAGER_ROLE holder nor the campaign's creator.
    error NotCampaignCreator(bytes32 campaignId, address caller);
    /// @notice Thrown when the caller has no issuing authority on the campaign (no role, not a
    /// campaign admin, no active delegated-minter configuration).
    error MinterNotAuthorized(bytes32 campaignId, address minter);
    /// @notice Thrown when a delegated minter would issue past its limit.
    error MinterLimitExceeded(bytes32 campaignId, address minter, uint256 limit, uint256 issued, uint256 amount);
    /// @notice Thrown when a minter limit is above 2^120 - 1.
    error LimitTooLarge(uint256 limit, uint256 max);
    /// @notice Thrown when a campaign's available budget is below `amount`.
    error InsufficientBudget(bytes32 campaignId, uint256 available, uint256 amount);
    /// @notice Thrown when a holder's pSP balance is below `amount`.
    error InsufficientPSPBalance(bytes32 campaignId, address holder, uint256 balance, uint256 amount);
    /// @notice Thrown when a settlement receiver is not on the campaign's settlement allowlist.
    error SettlementReceiverNotWhitelisted(bytes32 campaignId, address receiver);
    /// @notice Thrown when an admin transfer's receiver is not on the campaign's transfer allowlist.
    error TransferReceiverNotWhitelisted(bytes32 campaignId, address to);
    /// @notice Thrown when an amount is zero.
    error ZeroAmount();
    /// @notice Thrown when an address argument is the zero address.
    error ZeroAddress();
    /// @notice Thrown when an initial allowlist holds more than `max` accounts.
    error TooManyAccounts(uint256 length, uint256 max);
    /// @notice Thrown when a campaign admin who is not the campaign's funder, or a funder who is
    /// no longer a campaign admin, funds it without MANAGER_ROLE.
    error NotCampaignFunder(bytes32 campaignId, address caller);
    /// @notice Thrown when closing a campaign names a `returnTo` other than `expected`, the
    /// campaign's funder (or, for a campaign with no recorded funder, the treasury).
    error InvalidReturnTo(bytes32 campaignId, address returnTo, address expected);
    /// @notice Thrown when a batch form gets no rows.
    error EmptyBatch();
    /// @notice Thrown when a batch form's arrays differ in length from its first array (`expected` rows).
    error BatchLengthMismatch(uint256 expected, uint256 actual);
    /// @notice Thrown when revoking the creator of a campaign whose creator is already revoked.
    error CreatorAlreadyRevoked(bytes32 campaignId);

    /// @notice Emitted when a campaign was created by `creator`.
    event CampaignCreated(bytes32 indexed campaignId, address indexed creator, uint256 spBudget, string metadata);
    /// @notice Emitted when `amount` SP was added to a campaign's budget; `fromUnallocated` of
    /// it came from SP already in the vault, the rest was pulled from `funder`.
    event CampaignFunded(bytes32 indexed campaignId, address indexed funder, uint256 amount, uint256 fromUnallocated);
    /// @notice Emitted when a campaign's status changed.
    event CampaignStatusUpdated(bytes32 indexed campaignId, CampaignStatus status);
    /// @notice Emitted when a campaign was closed and `returned` SP (the funder's share of the
    /// unissued budget) sent to `returnTo`, its funder.
    event CampaignClosed(bytes32 indexed campaignId, address indexed returnTo, uint256 returned);
    /// @notice Emitted when closing a campaign gave `amount` SP of program money (budget drawn
    /// from unallocated SP or added by a MANAGER_ROLE holder who is not its funder) back to
    /// `treasury`, or left it unallocated in the vault when `treasury` is zero.
    event CampaignProgramShareReleased(bytes32 indexed campaignId, address indexed treasury, uint256 amount);
    /// @notice Emitted when MANAGER_ROLE removed `creator`'s creator and admin rights on a campaign.
    event CampaignCreatorRevoked(bytes32 indexed campaignId, address indexed creator);
    /// @notice Emitted when MANAGER_ROLE set the treasury (zero: program money stays unallocated).
    event TreasuryUpdated(address indexed treasury);
    /// @notice Emitted when `account` was made (or no longer is) an admin of the campaign.
    event CampaignAdminUpdated(bytes32 indexed campaignId, address indexed account, bool allowed);
    /// @notice Emitted when `account` was added to or removed from the settlement allowlist.
    event SettlementWhitelistUpdated(bytes32 indexed campaignId, address indexed account, bool allowed);
    /// @notice Emitted when `account` was added to or removed from the campaign's transfer allowlist.
    event TransferWhitelistUpdated(bytes32 indexed campaignId, address indexed account, bool allowed);
    /// @notice Emitted when a delegated minter's configuration was set.
    event MinterConfigured(bytes32 indexed campaignId, address indexed minter, uint256 limit, bool active);
    /// @notice Emitted when `minter` issued `amount` pSP to `to`.
    event PSPMinted(
        bytes32 indexed campaignId,
        address indexed minter,
        address indexed to,
        uint256 amount,
        string metadata
    );
    /// @notice Emitted when `amount` pSP of `holder` was settled into SP sent to `receiver`.
    event PSPSettled(
        bytes32 indexed campaignId,
        address indexed holder,
        address indexed receiver,
        uint256 amount,
        string metadata
    );
    /// @notice Emitted when `amount` pSP of `holder` was expired back into the budget.
    event PSPExpired(bytes32 indexed campaignId, address indexed holder, uint256 amount, string metadata);
    /// @notice Emitted when an admin moved `amount` pSP from `from` to `to`.
    event PSPTransferred(bytes32 indexed campaignId, address indexed from, address indexed to, uint256 amount);

    /// @notice Creates a campaign funded with `spBudget` SP pulled from the caller (a
    /// MANAGER_ROLE holder draws on unallocated SP first). MANAGER_ROLE or CAMPAIGN_ADMIN_ROLE;
    /// the caller becomes the campaign's creator, admin and funder (docs/rules.md#campaigns).
    function createCampaign(
        bytes32 campaignId,
        uint256 spBudget,
        address[] calldata settlementDestinations,
        address[] calldata transferWhitelist,
        string calldata metadata
    ) external;

    /// @notice Adds `amount` SP to an open campaign's budget, pulled from the caller. The
    /// campaign's funder while it is a campaign admin, or a MANAGER_ROLE holder (who draws on
    /// unallocated SP first); the rest of the campaign's admins may not fund it.
    function fundCampaign(bytes32 campaignId, uint256 amount) external;

    /// @notice Active -> Paused. MANAGER_ROLE or a campaign admin.
    function pauseCampaign(bytes32 campaignId) external;

    /// @notice Paused -> Active. MANAGER_ROLE or a campaign admin.
    function resumeCampaign(bytes32 campaignId) external;

    /// @notice Active/Paused -> Closed. The unissued budget goes back to whoever paid for it:
    /// program money first (to the treasury, or unallocated without one), the rest to the
    /// funder. `returnTo` must be {closeRecipient}. Outstanding pSP can still be settled or
    /// expired. MANAGER_ROLE or a campaign admin.
    function closeCampaign(bytes32 campaignId, address returnTo) external;

    /// @notice Removes the creator's rights on a campaign (it no longer adds admins, is no
    /// longer an admin and can no longer fund it); its refund as funder stays. MANAGER_ROLE.
    function revokeCreator(bytes32 campaignId) external;

    /// @notice Sets where program money goes when a campaign closes; zero keeps it unallocated
    /// in the vault. MANAGER_ROLE.
    function setTreasury(address treasury_) external;

    /// @notice Issues `amount` pSP to `to` under an Active campaign. Authority (docs/rules.md#issuance):
    /// MANAGER_ROLE, ISSUING_ADMIN_ROLE or a campaign admin (budget-bound), or an active
    /// delegated minter of the campaign (also bound by its limit).
    function mint(bytes32 campaignId, address to, uint256 amount, string calldata metadata) external;

    /// @notice {mint} for many receivers at once: row `i` issues `amounts[i]` pSP to `to[i]` and
    /// emits its own {PSPMinted}. Each row is checked as in {mint}; the campaign status, the
    /// authority, the delegated-minter limit and the budget are checked once against the sum of
    /// the rows (docs/rules.md#batch-forms). All rows or none.
    function mintBatch(
        bytes32 campaignId,
        address[] calldata to,
        uint256[] calldata amounts,
        string calldata metadata
    ) external;

    /// @notice Burns `amount` pSP of `holder` and sends as much SP to `receiver`, who must be on
    /// the campaign's settlement allowlist. MANAGER_ROLE or SETTLEMENT_ADMIN_ROLE.
    function settle(
        address holder,
        address receiver,
        uint256 amount,
        bytes32 campaignId,
        string calldata metadata
    ) external;

    /// @notice {settle} for many rows at once: row `i` settles `amounts[i]` pSP of `holders[i]` to
    /// `receivers[i]` and emits its own {PSPSettled}; every receiver must be on the settlement
    /// allowlist. All rows or none. MANAGER_ROLE or SETTLEMENT_ADMIN_ROLE.
    function settleBatch(
        address[] calldata holders,
        address[] calldata receivers,
        uint256[] calldata amounts,
        bytes32 campaignId,
        string calldata metadata
    ) external;

    /// @notice Burns `amount` pSP of `holder` and returns the SP to the campaign's available
    /// budget (to unallocated SP once the campaign is Closed). MANAGER_ROLE or SETTLEMENT_ADMIN_ROLE.
    function expire(address holder, uint256 amount, bytes32 campaignId, string calldata metadata) external;

    /// @notice {expire} for many rows at once: row `i` expires `amounts[i]` pSP of `holders[i]`
    /// and emits its own {PSPExpired}. All rows or none. MANAGER_ROLE or SETTLEMENT_ADMIN_ROLE.
    function expireBatch(
        address[] calldata holders,
        uint256[] calldata amounts,
        bytes32 campaignId,
        string calldata metadata
    ) external;

    /// @notice Moves `amount` pSP from `from` to `to`, who must be on the campaign's transfer
    /// allowlist. MANAGER_ROLE or TRANSFER_ADMIN_ROLE.
    function transfer(bytes32 campaignId, address from, address to, uint256 amount) external;

    /// @notice Adds or removes a settlement destination. MANAGER_ROLE or a campaign admin.
    function updateSettlementWhitelist(bytes32 campaignId, address account, bool allowed) external;

    /// @notice Adds or removes a pSP holder allowed to receive admin transfers. MANAGER_ROLE or
    /// a campaign admin.
    function updateTransferWhitelist(bytes32 campaignId, address account, bool allowed) external;

    /// @notice Sets a delegated minter's limit and activity; `(0, false)` revokes. The issued
    /// count is kept. MANAGER_ROLE or a campaign admin.
    function setMinter(bytes32 campaignId, address minter, uint256 limit, bool active) external;

    /// @notice Makes `account` an admin of the campaign, or removes it. MANAGER_ROLE or the creator.
    function setCampaignAdmin(bytes32 campaignId, address account, bool allowed) external;

    /// @notice A campaign. Reverts {CampaignNotFound} for an unknown id.
    function getCampaign(bytes32 campaignId) external view returns (Campaign memory);

    /// @notice A delegated minter's configuration on a campaign.
    function getMinterConfig(
        bytes32 campaignId,
        address minter
    ) external view returns (uint256 limit, uint256 issued, bool active);

    /// @notice pSP of `holder` in a campaign.
    function balanceOf(bytes32 campaignId, address holder) external view returns (uint256);

    /// @notice Whether `account` is an admin of the campaign.
    function isCampaignAdmin(bytes32 campaignId, address account) external view returns (bool);

    /// @notice Whether `account` may receive settled SP for the campaign.
    function isSettlementWhitelisted(bytes32 campaignId, address account) external view returns (bool);

    /// @notice Whether `account` may receive admin transfers of the campaign's pSP.
    function isTransferWhitelisted(bytes32 campaignId, address account) external view returns (bool);

    /// @notice Who funds the campaign from its own SP (its creator; zero for campaigns created
    /// before funders were recorded) and how much of its budget is program money.
    function fundingOf(bytes32 campaignId) external view returns (address funder, uint256 programFunded);

    /// @notice The address {closeCampaign} requires as `returnTo`: the funder, or the treasury
    /// for a campaign without a recorded funder.
    function closeRecipient(bytes32 campaignId) external view returns (address);

    /// @notice Where program money goes when a campaign closes (zero: it stays unallocated).
    function treasury() external view returns (address);

    /// @notice SP in the vault allocated to no campaign.
    function unallocated() external view returns (uint256);

    /// @notice SP allocated to campaigns (available plus outstanding, summed).
    function totalAllocated() external view returns (uint256);

    /// @notice The SP token.
    function points() external view returns (address);
}
