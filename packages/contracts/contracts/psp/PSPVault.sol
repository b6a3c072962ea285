// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";
import {ProgramUpgradeable} from "../common/ProgramUpgradeable.sol";
import {IPSPVault} from "../interfaces/IPSPVault.sol";

/// @title PSPVault
/// @notice Campaigns and the pSP ledger. See {IPSPVault}.
contract PSPVault is ProgramUpgradeable, ReentrancyGuardTransient, IPSPVault {
    using SafeERC20 for IERC20;

    /// @notice Broad authority: campaigns, minters, allowlists, issue, settle, expire, transfer.
    bytes32 public constant MANAGER_ROLE = keccak256("MANAGER_ROLE");
    /// @notice May create campaigns.
    bytes32 public constant CAMPAIGN_ADMIN_ROLE = keccak256("CAMPAIGN_ADMIN_ROLE");
    /// @notice May issue pSP into any active campaign, budget-bound.
    bytes32 public constant ISSUING_ADMIN_ROLE = keccak256("ISSUING_ADMIN_ROLE");
    /// @notice May settle and expire pSP.
    bytes32 public constant SETTLEMENT_ADMIN_ROLE = keccak256("SETTLEMENT_ADMIN_ROLE");
    /// @notice May move pSP between holders.
    bytes32 public constant TRANSFER_ADMIN_ROLE = keccak256("TRANSFER_ADMIN_ROLE");
    /// @notice Most accounts in each initial allowlist of {createCampaign}.
    uint256 public constant MAX_INITIAL_ACCOUNTS = 256;

    /// @dev A delegated minter's configuration, packed into one slot.
    struct Minter {
        uint120 limit;
        uint120 issued;
        bool active;
    }

    /// @dev Who pays for a campaign (docs/rules.md#campaigns): `funder` put in budget - programFunded
    /// from its own SP; `programFunded` came from unallocated SP or from a MANAGER_ROLE holder
    /// that is not the funder.
    struct Funding {
        address funder;
        uint256 programFunded;
    }

    /// @dev Where {_mintedData} encoded {PSPMinted}'s data in memory, and its length.
    struct MintedData {
        uint256 ptr;
        uint256 size;
    }

    /// @custom:storage-location erc7201:points.storage.PSPVault
    struct PSPVaultStorage {
        address points;
        uint256 allocated;
        mapping(bytes32 campaignId => Campaign) campaigns;
        mapping(bytes32 campaignId => mapping(address holder => uint256)) balances;
        mapping(bytes32 campaignId => mapping(address account => bool)) campaignAdmins;
        mapping(bytes32 campaignId => mapping(address account => bool)) settlementWhitelist;
        mapping(bytes32 campaignId => mapping(address account => bool)) transferWhitelist;
        mapping(bytes32 campaignId => mapping(address minter => Minter)) minters;
        // Appended in 0.2: campaign funding and the treasury (docs/deployment.md#upgrades).
        address treasury;
        mapping(bytes32 campaignId => Funding) funding;
    }

    // keccak256(abi.encode(uint256(keccak256("points.storage.PSPVault")) - 1)) & ~bytes32(uint256(0xff))
    bytes32 private constant PSP_VAULT_STORAGE = 0x787b24183171dfe6cb90f8d929b3507809e83c584969efb5ec85efeacff93f00;

    /// @notice Initializes the vault over the SP token `points_`. `admin` gets every role.
    function initialize(address admin, uint48 adminDelay, address points_) external initializer {
        __Program_init(admin, adminDelay);
        if (points_ == address(0)) revert ZeroAddress();
        _getStorage().points = points_;
        _grantRole(MANAGER_ROLE, admin);
        _grantRole(CAMPAIGN_ADMIN_ROLE, admin);
        _grantRole(ISSUING_ADMIN_ROLE, admin);
        _grantRole(SETTLEMENT_ADMIN_ROLE, admin);
        _grantRole(TRANSFER_ADMIN_ROLE, admin);
    }

    // ---------------------------------------------------------------- campaign lifecycle

    /// @inheritdoc IPSPVault
    function createCampaign(
        bytes32 campaignId,
        uint256 spBudget,
        address[] calldata settlementDestinations,
        address[] calldata transferWhitelist,
        string calldata metadata
    ) external nonReentrant whenNotPaused {
        _requireRole(CAMPAIGN_ADMIN_ROLE);
        if (campaignId == bytes32(0)) revert InvalidCampaignId();
        _requireAtMost(settlementDestinations.length);
        _requireAtMost(transferWhitelist.length);
        PSPVaultStorage storage $ = _getStorage();
        Campaign storage c = $.campaigns[campaignId];
        if (c.status != CampaignStatus.None) revert CampaignAlreadyExists(campaignId);
        c.creator = msg.sender;
        $.funding[campaignId].funder = msg.sender;
        c.status = CampaignStatus.Active;
        c.metadata = metadata;
        emit CampaignCreated(campaignId, msg.sender, spBudget, metadata);
        _setFlag($.campaignAdmins, campaignId, msg.sender, true);
        emit CampaignAdminUpdated(campaignId, msg.sender, true);
        for (uint256 i = 0; i < settlementDestinations.length; ++i) {
            _updateList($, true, campaignId, settlementDestinations[i], true);
        }
        for (uint256 i = 0; i < transferWhitelist.length; ++i) {
            _updateList($, false, campaignId, transferWhitelist[i], true);
        }
        _fund($, c, campaignId, spBudget);
    }

    /// @inheritdoc IPSPVault
    function fundCampaign(bytes32 campaignId, uint256 amount) external nonReentrant whenNotPaused {
        PSPVaultStorage storage $ = _getStorage();
        Campaign storage c = _campaign($, campaignId);
        _requireCampaignAdmin($, campaignId);
        // Other admins' SP would become the funder's refund: only the funder pays, or the program.
        if (
            !hasRole(MANAGER_ROLE, msg.sender) &&
            (msg.sender != $.funding[campaignId].funder || !$.campaignAdmins[campaignId][msg.sender])
        ) revert NotCampaignFunder(campaignId, msg.sender);
        if (c.status == CampaignStatus.Closed) revert InvalidCampaignStatus(campaignId, c.status);
        if (amount == 0) revert ZeroAmount();
        _fund($, c, campaignId, amount);
    }

    /// @inheritdoc IPSPVault
    function pauseCampaign(bytes32 campaignId) external {
        _moveStatus(campaignId, CampaignStatus.Active, CampaignStatus.Paused);
    }

    /// @inheritdoc IPSPVault
    function resumeCampaign(bytes32 campaignId) external {
        _moveStatus(campaignId, CampaignStatus.Paused, CampaignStatus.Active);
    }

    /// @inheritdoc IPSPVault
    function closeCampaign(bytes32 campaignId, address returnTo) external nonReentrant whenNotPaused {
        PSPVaultStorage storage $ = _getStorage();
        Campaign storage c = _campaign($, campaignId);
        _requireCampaignAdmin($, campaignId);
        if (c.status == CampaignStatus.Closed) revert InvalidCampaignStatus(campaignId, c.status);
        Funding storage f = $.funding[campaignId];
        address funder = f.funder;
        address treasury_ = $.treasury;
        address expected = funder == address(0) ? treasury_ : funder;
        if (returnTo != expected) revert InvalidReturnTo(campaignId, returnTo, expected);
        uint256 remaining = c.available;
        // Program money is given back first, so the funder never gets more than it paid.
        uint256 toProgram = funder == address(0) ? remaining : Math.min(remaining, f.programFunded);
        uint256 returned = remaining - toProgram;
        c.available = 0;
        c.status = CampaignStatus.Closed;
        // Without a treasury the program's share stays in the vault, unallocated.
        $.allocated -= remaining;
        emit CampaignStatusUpdated(campaignId, CampaignStatus.Closed);
        emit CampaignClosed(campaignId, returnTo, returned);
        if (toProgram != 0) emit CampaignProgramShareReleased(campaignId, treasury_, toProgram);
        IERC20 sp = IERC20($.points);
        if (returned != 0) sp.safeTransfer(returnTo, returned);
        if (toProgram != 0 && treasury_ != address(0)) sp.safeTransfer(treasury_, toProgram);
    }

    /// @inheritdoc IPSPVault
    function revokeCreator(bytes32 campaignId) external onlyRole(MANAGER_ROLE) {
        PSPVaultStorage storage $ = _getStorage();
        Campaign storage c = _campaign($, campaignId);
        address creator = c.creator;
        if (creator == address(0)) revert CreatorAlreadyRevoked(campaignId);
        c.creator = address(0);
        emit CampaignCreatorRevoked(campaignId, creator);
        if (_setFlag($.campaignAdmins, campaignId, creator, false)) {
            emit CampaignAdminUpdated(campaignId, creator, false);
        }
    }

    /// @inheritdoc IPSPVault
    function setTreasury(address treasury_) external onlyRole(MANAGER_ROLE) {
        _getStorage().treasury = treasury_;
        emit TreasuryUpdated(treasury_);
    }

    // ---------------------------------------------------------------- pSP ledger

    /// @inheritdoc IPSPVault
    function mint(bytes32 campaignId, address to, uint256 amount, string calldata metadata) external whenNotPaused {
        PSPVaultStorage storage $ = _getStorage();
        _credit($.balances[campaignId], campaignId, to, amount, _mintedData(metadata));
        _issue($, campaignId, amount);
    }

    /// @inheritdoc IPSPVault
    function mintBatch(
        bytes32 campaignId,
        address[] calldata to,
        uint256[] calldata amounts,
        string calldata metadata
    ) external whenNotPaused {
        uint256 n = _requireBatch(to.length, amounts.length);
        PSPVaultStorage storage $ = _getStorage();
        mapping(address => uint256) storage balances = $.balances[campaignId];
        MintedData memory data = _mintedData(metadata);
        uint256 total;
        for (uint256 i; i < n;) {
            uint256 amount = amounts[i];
            _credit(balances, campaignId, to[i], amount, data);
            total += amount;
            unchecked {
                ++i;
            }
        }
        // Rows first, then the rules once against the total: the transaction reverts as a whole.
        _issue($, campaignId, total);
    }

    /// @inheritdoc IPSPVault
    function settle(
        address holder,
        address receiver,
        uint256 amount,
        bytes32 campaignId,
        string calldata metadata
    ) external nonReentrant whenNotPaused {
        PSPVaultStorage storage $ = _getStorage();
        _beginBurn($, campaignId);
        _settleRow(campaignId, holder, receiver, amount, metadata);
        _endSettle($, campaignId, amount);
        IERC20($.points).safeTransfer(receiver, amount);
    }

    /// @inheritdoc IPSPVault
    function settleBatch(
        address[] calldata holders,
        address[] calldata receivers,
        uint256[] calldata amounts,
        bytes32 campaignId,
        string calldata metadata
    ) external nonReentrant whenNotPaused {
        uint256 n = _requireBatch(holders.length, amounts.length);
        if (receivers.length != n) revert BatchLengthMismatch(n, receivers.length);
        _beginBurn(_getStorage(), campaignId);
        uint256 total;
        for (uint256 i; i < n;) {
            uint256 amount = amounts[i];
            _settleRow(campaignId, holders[i], receivers[i], amount, metadata);
            // Cannot overflow: every amount was debited from a balance (see {expireBatch}).
            unchecked {
                total += amount;
                ++i;
            }
        }
        _endSettle(_getStorage(), campaignId, total);
        // Every check and write is done: only then does SP leave the vault.
        IERC20 sp = IERC20(_getStorage().points);
        for (uint256 i; i < n;) {
            sp.safeTransfer(receivers[i], amounts[i]);
            unchecked {
                ++i;
            }
        }
    }

    /// @inheritdoc IPSPVault
    function expire(
        address holder,
        uint256 amount,
        bytes32 campaignId,
        string calldata metadata
    ) external whenNotPaused {
        PSPVaultStorage storage $ = _getStorage();
        Campaign storage c = _beginBurn($, campaignId);
        _expireRow($.balances[campaignId], campaignId, holder, amount, metadata);
        _endExpire($, c, amount);
    }

    /// @inheritdoc IPSPVault
    function expireBatch(
        address[] calldata holders,
        uint256[] calldata amounts,
        bytes32 campaignId,
        string calldata metadata
    ) external whenNotPaused {
        uint256 n = _requireBatch(holders.length, amounts.length);
        Campaign storage c = _beginBurn(_getStorage(), campaignId);
        mapping(address => uint256) storage balances = _getStorage().balances[campaignId];
        uint256 total;
        for (uint256 i; i < n;) {
            uint256 amount = amounts[i];
            _expireRow(balances, campaignId, holders[i], amount, metadata);
            // Cannot overflow: every amount was debited from a balance, and balances sum to
            // the campaign's outstanding pSP.
            unchecked {
                total += amount;
                ++i;
            }
        }
        _endExpire(_getStorage(), c, total);
    }

    /// @inheritdoc IPSPVault
    function transfer(bytes32 campaignId, address from, address to, uint256 amount) external whenNotPaused {
        _requireRole(TRANSFER_ADMIN_ROLE);
        PSPVaultStorage storage $ = _getStorage();
        _campaign($, campaignId);
        if (!$.transferWhitelist[campaignId][to]) revert TransferReceiverNotWhitelisted(campaignId, to);
        _debit($.balances[campaignId], campaignId, from, amount);
        $.balances[campaignId][to] += amount;
        emit PSPTransferred(campaignId, from, to, amount);
    }

    // ---------------------------------------------------------------- configuration

    /// @inheritdoc IPSPVault
    function updateSettlementWhitelist(bytes32 campaignId, address account, bool allowed) external {
        _updateListAsAdmin(true, campaignId, account, allowed);
    }

    /// @inheritdoc IPSPVault
    function updateTransferWhitelist(bytes32 campaignId, address account, bool allowed) external {
        _updateListAsAdmin(false, campaignId, account, allowed);
    }

    /// @inheritdoc IPSPVault
    function setMinter(bytes32 campaignId, address minter, uint256 limit, bool active) external {
        PSPVaultStorage storage $ = _getStorage();
        _campaign($, campaignId);
        _requireCampaignAdmin($, campaignId);
        if (minter == address(0)) revert ZeroAddress();
        if (limit > type(uint120).max) revert LimitTooLarge(limit, type(uint120).max);
        Minter storage m = $.minters[campaignId][minter];
        (m.limit, m.active) = (uint120(limit), active);
        emit MinterConfigured(campaignId, minter, limit, active);
    }

    /// @inheritdoc IPSPVault
    function setCampaignAdmin(bytes32 campaignId, address account, bool allowed) external {
        PSPVaultStorage storage $ = _getStorage();
        Campaign storage c = _campaign($, campaignId);
        if (!hasRole(MANAGER_ROLE, msg.sender) && msg.sender != c.creator) {
            revert NotCampaignCreator(campaignId, msg.sender);
        }
        if (_setFlag($.campaignAdmins, campaignId, account, allowed)) {
            emit CampaignAdminUpdated(campaignId, account, allowed);
        }
    }

    // ---------------------------------------------------------------- views

    /// @inheritdoc IPSPVault
    function getCampaign(bytes32 campaignId) external view returns (Campaign memory) {
        return _campaign(_getStorage(), campaignId);
    }

    /// @inheritdoc IPSPVault
    function getMinterConfig(
        bytes32 campaignId,
        address minter
    ) external view returns (uint256 limit, uint256 issued, bool active) {
        Minter memory m = _getStorage().minters[campaignId][minter];
        return (m.limit, m.issued, m.active);
    }

    /// @inheritdoc IPSPVault
    function balanceOf(bytes32 campaignId, address holder) external view returns (uint256) {
        return _getStorage().balances[campaignId][holder];
    }

    /// @inheritdoc IPSPVault
    function isCampaignAdmin(bytes32 campaignId, address account) external view returns (bool) {
        return _getStorage().campaignAdmins[campaignId][account];
    }

    /// @inheritdoc IPSPVault
    function isSettlementWhitelisted(bytes32 campaignId, address account) external view returns (bool) {
        return _getStorage().settlementWhitelist[campaignId][account];
    }

    /// @inheritdoc IPSPVault
    function isTransferWhitelisted(bytes32 campaignId, address account) external view returns (bool) {
        return _getStorage().transferWhitelist[campaignId][account];
    }

    /// @inheritdoc IPSPVault
    function fundingOf(bytes32 campaignId) external view returns (address funder, uint256 programFunded) {
        PSPVaultStorage storage $ = _getStorage();
        _campaign($, campaignId);
        Funding storage f = $.funding[campaignId];
        return (f.funder, f.programFunded);
    }

    /// @inheritdoc IPSPVault
    function closeRecipient(bytes32 campaignId) external view returns (address) {
        PSPVaultStorage storage $ = _getStorage();
        _campaign($, campaignId);
        address funder = $.funding[campaignId].funder;
        return funder == address(0) ? $.treasury : funder;
    }

    /// @inheritdoc IPSPVault
    function treasury() external view returns (address) {
        return _getStorage().treasury;
    }

    /// @inheritdoc IPSPVault
    function unallocated() public view returns (uint256) {
        PSPVaultStorage storage $ = _getStorage();
        return IERC20($.points).balanceOf(address(this)) - $.allocated;
    }

    /// @inheritdoc IPSPVault
    function totalAllocated() external view returns (uint256) {
        return _getStorage().allocated;
    }

    /// @inheritdoc IPSPVault
    function points() external view returns (address) {
        return _getStorage().points;
    }

    // ---------------------------------------------------------------- internals

    /// @dev Budget comes from the caller's SP; only a MANAGER_ROLE holder draws on unallocated
    /// SP (first), since that SP is nobody's in particular. What did not come from the funder's
    /// own SP is program money, given back first at closing.
    function _fund(PSPVaultStorage storage $, Campaign storage c, bytes32 campaignId, uint256 amount) private {
        if (amount == 0) return;
        uint256 fromUnallocated = hasRole(MANAGER_ROLE, msg.sender) ? Math.min(unallocated(), amount) : 0;
        Funding storage f = $.funding[campaignId];
        uint256 programShare = msg.sender == f.funder ? fromUnallocated : amount;
        if (programShare != 0) f.programFunded += programShare;
        c.budget += amount;
        c.available += amount;
        $.allocated += amount;
        emit CampaignFunded(campaignId, msg.sender, amount, fromUnallocated);
        if (amount > fromUnallocated) {
            IERC20($.points).safeTransferFrom(msg.sender, address(this), amount - fromUnallocated);
        }
    }

    /// @dev The issuance rules (docs/rules.md#issuance), checked once per call against `total`,
    /// the sum of the rows: Active campaign, authority, delegated-minter limit, budget.
    function _issue(PSPVaultStorage storage $, bytes32 campaignId, uint256 total) private {
        Campaign storage c = _campaign($, campaignId);
        if (c.status != CampaignStatus.Active) revert CampaignNotActive(campaignId, c.status);
        if (
            !hasRole(MANAGER_ROLE, msg.sender) &&
            !hasRole(ISSUING_ADMIN_ROLE, msg.sender) &&
            !$.campaignAdmins[campaignId][msg.sender]
        ) {
            _consumeMinterLimit($.minters[campaignId][msg.sender], campaignId, total);
        }
        uint256 available = c.available;
        if (available < total) revert InsufficientBudget(campaignId, available, total);
        unchecked {
            c.available = available - total;
        }
        c.outstanding += total;
    }

    /// @dev One issued row. The balance cannot overflow unchecked: if the rows' total passes
    /// the budget, {_issue} reverts the whole call, and a budget never passes the SP supply.
    function _credit(
        mapping(address => uint256) storage balances,
        bytes32 campaignId,
        address to,
        uint256 amount,
        MintedData memory data
    ) private {
        if (to == address(0)) revert ZeroAddress();
        if (amount == 0) revert ZeroAmount();
        unchecked {
            balances[to] += amount;
        }
        // emit PSPMinted(campaignId, msg.sender, to, amount, metadata), over data encoded once.
        bytes32 topic = PSPMinted.selector;
        uint256 ptr = data.ptr;
        uint256 size = data.size;
        assembly ("memory-safe") {
            mstore(ptr, amount)
            log4(ptr, size, topic, campaignId, caller(), to)
        }
    }

    /// @dev ABI-encodes {PSPMinted}'s data, `(amount, metadata)`, once per call with a zero
    /// amount word that each row of {_credit} overwrites: a batch does not re-encode the
    /// metadata for every row.
    function _mintedData(string calldata metadata) private pure returns (MintedData memory data) {
        uint256 ptr;
        uint256 size;
        assembly ("memory-safe") {
            ptr := mload(0x40)
            let len := metadata.length
            mstore(add(ptr, 0x20), 0x40)
            mstore(add(ptr, 0x40), len)
            calldatacopy(add(ptr, 0x60), metadata.offset, len)
            // Zero the padding after the string; the word written may pass `size`, so the
            // free memory pointer moves past it too.
            mstore(add(add(ptr, 0x60), len), 0)
            size := add(0x60, and(add(len, 0x1f), not(0x1f)))
            mstore(0x40, add(ptr, add(size, 0x20)))
        }
        (data.ptr, data.size) = (ptr, size);
    }

    /// @dev What settle and expire check before any row: the role, then the campaign.
    function _beginBurn(PSPVaultStorage storage $, bytes32 campaignId) private view returns (Campaign storage) {
        _requireRole(SETTLEMENT_ADMIN_ROLE);
        return _campaign($, campaignId);
    }

    function _settleRow(
        bytes32 campaignId,
        address holder,
        address receiver,
        uint256 amount,
        string calldata metadata
    ) private {
        PSPVaultStorage storage $ = _getStorage();
        if (!$.settlementWhitelist[campaignId][receiver]) {
            revert SettlementReceiverNotWhitelisted(campaignId, receiver);
        }
        _debit($.balances[campaignId], campaignId, holder, amount);
        emit PSPSettled(campaignId, holder, receiver, amount, metadata);
    }

    function _endSettle(PSPVaultStorage storage $, bytes32 campaignId, uint256 total) private {
        $.campaigns[campaignId].outstanding -= total;
        $.allocated -= total;
    }

    function _expireRow(
        mapping(address => uint256) storage balances,
        bytes32 campaignId,
        address holder,
        uint256 amount,
        string calldata metadata
    ) private {
        _debit(balances, campaignId, holder, amount);
        emit PSPExpired(campaignId, holder, amount, metadata);
    }

    function _endExpire(PSPVaultStorage storage $, Campaign storage c, uint256 total) private {
        c.outstanding -= total;
        // A closed campaign cannot issue again: its SP becomes unallocated instead.
        if (c.status == CampaignStatus.Closed) $.allocated -= total;
        else c.available += total;
    }

    /// @dev A batch's row count: non-empty, `amounts` as long as the accounts.
    function _requireBatch(uint256 accounts, uint256 amounts) private pure returns (uint256) {
        if (accounts == 0) revert EmptyBatch();
        if (amounts != accounts) revert BatchLengthMismatch(accounts, amounts);
        return accounts;
    }

    function _consumeMinterLimit(Minter storage m, bytes32 campaignId, uint256 amount) private {
        if (!m.active) revert MinterNotAuthorized(campaignId, msg.sender);
        (uint256 issued, uint256 limit) = (m.issued, m.limit);
        // Same as issued + amount > limit, without overflowing on a huge amount.
        if (amount > limit || issued > limit - amount) {
            revert MinterLimitExceeded(campaignId, msg.sender, limit, issued, amount);
        }
        // Cannot truncate: issued + amount <= limit < 2^120.
        m.issued = uint120(issued + amount);
    }

    function _debit(
        mapping(address => uint256) storage balances,
        bytes32 campaignId,
        address holder,
        uint256 amount
    ) private {
        if (amount == 0) revert ZeroAmount();
        uint256 balance = balances[holder];
        if (balance < amount) revert InsufficientPSPBalance(campaignId, holder, balance, amount);
        unchecked {
            balances[holder] = balance - amount;
        }
    }

    function _moveStatus(bytes32 campaignId, CampaignStatus from, CampaignStatus to) private {
        PSPVaultStorage storage $ = _getStorage();
        Campaign storage c = _campaign($, campaignId);
        _requireCampaignAdmin($, campaignId);
        if (c.status != from) revert InvalidCampaignStatus(campaignId, c.status);
        c.status = to;
        emit CampaignStatusUpdated(campaignId, to);
    }

    function _updateListAsAdmin(bool settlement, bytes32 campaignId, address account, bool allowed) private {
        PSPVaultStorage storage $ = _getStorage();
        _campaign($, campaignId);
        _requireCampaignAdmin($, campaignId);
        _updateList($, settlement, campaignId, account, allowed);
    }

    /// @dev `settlement` picks the campaign's settlement allowlist, else its transfer allowlist.
    function _updateList(
        PSPVaultStorage storage $,
        bool settlement,
        bytes32 campaignId,
        address account,
        bool allowed
    ) private {
        if (settlement) {
            if (_setFlag($.settlementWhitelist, campaignId, account, allowed)) {
                emit SettlementWhitelistUpdated(campaignId, account, allowed);
            }
        } else if (_setFlag($.transferWhitelist, campaignId, account, allowed)) {
            emit TransferWhitelistUpdated(campaignId, account, allowed);
        }
    }

    /// @dev Idempotent; returns whether anything changed (events only report changes).
    function _setFlag(
        mapping(bytes32 => mapping(address => bool)) storage flags,
        bytes32 campaignId,
        address account,
        bool value
    ) private returns (bool changed) {
        if (account == address(0)) revert ZeroAddress();
        changed = flags[campaignId][account] != value;
        flags[campaignId][account] = value;
    }

    function _campaign(PSPVaultStorage storage $, bytes32 campaignId) private view returns (Campaign storage c) {
        c = $.campaigns[campaignId];
        if (c.status == CampaignStatus.None) revert CampaignNotFound(campaignId);
    }

    function _requireRole(bytes32 role) private view {
        if (!hasRole(MANAGER_ROLE, msg.sender) && !hasRole(role, msg.sender)) {
            revert CallerNotAuthorized(msg.sender, role);
        }
    }

    function _requireCampaignAdmin(PSPVaultStorage storage $, bytes32 campaignId) private view {
        if (!hasRole(MANAGER_ROLE, msg.sender) && !$.campaignAdmins[campaignId][msg.sender]) {
            revert NotCampaignAdmin(campaignId, msg.sender);
        }
    }

    function _requireAtMost(uint256 length) private pure {
        if (length > MAX_INITIAL_ACCOUNTS) revert TooManyAccounts(length, MAX_INITIAL_ACCOUNTS);
    }

    function _getStorage() private pure returns (PSPVaultStorage storage $) {
        assembly {
            $.slot := PSP_VAULT_STORAGE
        }
    }
}
