// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Address} from "@openzeppelin/contracts/utils/Address.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";
import {ProgramUpgradeable} from "../common/ProgramUpgradeable.sol";
import {IPSPVault} from "../interfaces/IPSPVault.sol";
import {PSPVaultCampaigns} from "./PSPVaultCampaigns.sol";
import {PSPVaultRows} from "./PSPVaultRows.sol";
import {PSPVaultViews} from "./PSPVaultViews.sol";

/// @title PSPVault
/// @notice Campaigns and the pSP ledger. See {IPSPVault}; storage and shared checks live in
/// {PSPVaultState}, the views in {PSPVaultViews}, the rows' events and issued rows in
/// {PSPVaultRows}, the code of creating, funding and closing campaigns in {PSPVaultCampaigns}.
contract PSPVault is ProgramUpgradeable, ReentrancyGuardTransient, PSPVaultViews, PSPVaultRows {
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
    /// @notice The campaign lifecycle's code, run by delegatecall (see {PSPVaultCampaigns}).
    /// @custom:oz-upgrades-unsafe-allow state-variable-immutable
    address private immutable _campaignsTarget;

    /// @custom:oz-upgrades-unsafe-allow constructor
    constructor() {
        _campaignsTarget = address(new PSPVaultCampaigns());
    }

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
        _delegateCampaigns(
            abi.encodeCall(
                PSPVaultCampaigns.createCampaign,
                (campaignId, spBudget, settlementDestinations, transferWhitelist, metadata, _isManager())
            )
        );
    }

    /// @inheritdoc IPSPVault
    function fundCampaign(bytes32 campaignId, uint256 amount) external nonReentrant whenNotPaused {
        _delegateCampaigns(abi.encodeCall(PSPVaultCampaigns.fundCampaign, (campaignId, amount, _isManager())));
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
        _delegateCampaigns(abi.encodeCall(PSPVaultCampaigns.closeCampaign, (campaignId, returnTo, _isManager())));
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
        _credit($.balances[campaignId], campaignId, to, amount, _rowData(metadata));
        _issue($, campaignId, amount);
    }

    /// @inheritdoc IPSPVault
    function mintBatch(
        bytes32 campaignId,
        address[] calldata to,
        uint256[] calldata amounts,
        string calldata metadata
    ) external whenNotPaused {
        _requireBatch(to.length, amounts.length);
        PSPVaultStorage storage $ = _getStorage();
        mapping(address => uint256) storage balances = $.balances[campaignId];
        uint256 total = _creditRows(balances, campaignId, to, amounts, _rowData(metadata));
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
        _settleDebit(campaignId, holder, receiver, amount);
        emit PSPSettled(campaignId, holder, receiver, amount, metadata);
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
        // The row count is not kept on the stack: the loop has no slot to spare.
        {
            uint256 n = _requireBatch(holders.length, amounts.length);
            if (receivers.length != n) revert BatchLengthMismatch(n, receivers.length);
        }
        _beginBurn(_getStorage(), campaignId);
        RowData memory data = _rowData(metadata);
        uint256 total;
        // Each distinct receiver, in the order it first appears: it is paid once, its rows' sum.
        address[] memory payees = _payeeList(holders.length);
        for (uint256 i; i < holders.length;) {
            uint256 amount = amounts[i];
            _settleRow(campaignId, holders[i], receivers[i], amount, data);
            _owe(payees, receivers[i], amount);
            // Cannot overflow: every amount was debited from a balance (see {expireBatch}).
            unchecked {
                total += amount;
                ++i;
            }
        }
        _endSettle(_getStorage(), campaignId, total);
        // Every check and write is done: only then does SP leave the vault.
        _payOwed(payees);
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
        _debit($.balances[campaignId], campaignId, holder, amount);
        emit PSPExpired(campaignId, holder, amount, metadata);
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
        _beginBurn(_getStorage(), campaignId);
        mapping(address => uint256) storage balances = _getStorage().balances[campaignId];
        RowData memory data = _rowData(metadata);
        uint256 total;
        for (uint256 i; i < n;) {
            uint256 amount = amounts[i];
            _expireRow(balances, campaignId, holders[i], amount, data);
            // Cannot overflow: every amount was debited from a balance, and balances sum to
            // the campaign's outstanding pSP.
            unchecked {
                total += amount;
                ++i;
            }
        }
        // The campaign again rather than kept on the stack (a warm read, once per call).
        _endExpire(_getStorage(), _getStorage().campaigns[campaignId], total);
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
        // Cannot truncate: limit <= type(uint120).max, checked above.
        // forge-lint: disable-next-line(unsafe-typecast)
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

    // ---------------------------------------------------------------- internals

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

    /// @dev What settle and expire check before any row: the role, then the campaign.
    function _beginBurn(PSPVaultStorage storage $, bytes32 campaignId) private view returns (Campaign storage) {
        _requireRole(SETTLEMENT_ADMIN_ROLE);
        return _campaign($, campaignId);
    }

    /// @dev A settled row: the receiver must be on the campaign's settlement allowlist.
    function _settleDebit(bytes32 campaignId, address holder, address receiver, uint256 amount) private {
        PSPVaultStorage storage $ = _getStorage();
        if (!$.settlementWhitelist[campaignId][receiver]) {
            revert SettlementReceiverNotWhitelisted(campaignId, receiver);
        }
        _debit($.balances[campaignId], campaignId, holder, amount);
    }

    /// @dev A batch's settled row, its event over data encoded once ({_rowData}); the single
    /// form emits with `emit`, cheaper for one row.
    function _settleRow(
        bytes32 campaignId,
        address holder,
        address receiver,
        uint256 amount,
        RowData memory data
    ) private {
        _settleDebit(campaignId, holder, receiver, amount);
        _logRow(data, amount, PSPSettled.selector, campaignId, holder, receiver);
    }

    /// @dev Sends each payee, in order, what the batch owes it ({_owe}).
    function _payOwed(address[] memory payees) private {
        IERC20 sp = IERC20(_getStorage().points);
        for (uint256 j; j < payees.length;) {
            address payee = payees[j];
            sp.safeTransfer(payee, _takeOwed(payee));
            unchecked {
                ++j;
            }
        }
    }

    function _endSettle(PSPVaultStorage storage $, bytes32 campaignId, uint256 total) private {
        $.campaigns[campaignId].outstanding -= total;
        $.allocated -= total;
    }

    /// @dev A batch's expired row (see {_settleRow}).
    function _expireRow(
        mapping(address => uint256) storage balances,
        bytes32 campaignId,
        address holder,
        uint256 amount,
        RowData memory data
    ) private {
        _debit(balances, campaignId, holder, amount);
        _logRow(data, amount, PSPExpired.selector, campaignId, holder);
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
        // forge-lint: disable-next-line(unsafe-typecast)
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

    function _requireRole(bytes32 role) private view {
        if (!hasRole(MANAGER_ROLE, msg.sender) && !hasRole(role, msg.sender)) {
            revert CallerNotAuthorized(msg.sender, role);
        }
    }

    function _requireCampaignAdmin(PSPVaultStorage storage $, bytes32 campaignId) private view {
        _requireCampaignAdmin($, campaignId, _isManager());
    }

    function _isManager() private view returns (bool) {
        return hasRole(MANAGER_ROLE, msg.sender);
    }

    /// @dev Runs the campaign lifecycle's code in this proxy's context; its address is fixed in
    /// this implementation's bytecode, so changing it takes an upgrade.
    /// @custom:oz-upgrades-unsafe-allow delegatecall
    function _delegateCampaigns(bytes memory data) private {
        Address.functionDelegateCall(_campaignsTarget, data);
    }
}
