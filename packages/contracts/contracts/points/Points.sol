// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20PermitUpgradeable} from "@openzeppelin/contracts-upgradeable/token/ERC20/extensions/ERC20PermitUpgradeable.sol";
import {ProgramUpgradeable} from "../common/ProgramUpgradeable.sol";
import {IPoints} from "../interfaces/IPoints.sol";

/// @title Points
/// @notice Branded SP. See {IPoints}.
/// @dev Balances live in this contract's own ERC-7201 namespace, packed with the holder's
/// allowlist bit in one slot, so an allowlisted transfer reads no storage slot beyond what a
/// plain ERC-20 transfer reads. ERC20Upgradeable's own balance and supply storage stay unused;
/// its allowances, metadata and permit nonces are used as they are.
contract Points is ProgramUpgradeable, ERC20PermitUpgradeable, IPoints {
    /// @notice Role allowed to mint and burn SP (the Factory).
    bytes32 public constant MINTER_ROLE = keccak256("MINTER_ROLE");

    /// @dev One word per holder: balance in the low 248 bits, allowlist flag in the top byte.
    struct Holder {
        uint248 balance;
        bool whitelisted;
    }

    /// @custom:storage-location erc7201:points.storage.Points
    struct PointsStorage {
        mapping(address account => Holder) holders;
        uint256 totalSupply;
        bool transferRestricted;
    }

    // keccak256(abi.encode(uint256(keccak256("points.storage.Points")) - 1)) & ~bytes32(uint256(0xff))
    bytes32 private constant POINTS_STORAGE = 0x2157921a61e607371f000c8e3bfc192e9683b078a1d4006fb9b0ecec35ad6100;

    /// @notice Initializes the token. `minter` gets MINTER_ROLE; `whitelist` (the system
    /// contracts) starts on the transfer allowlist; transfers start restricted.
    function initialize(
        string calldata name_,
        string calldata symbol_,
        address admin,
        uint48 adminDelay,
        address minter,
        address[] calldata whitelist
    ) external initializer {
        __Program_init(admin, adminDelay);
        __ERC20_init(name_, symbol_);
        __ERC20Permit_init(name_);
        if (minter == address(0)) revert ZeroAddress();
        _grantRole(MINTER_ROLE, minter);
        _getPointsStorage().transferRestricted = true;
        emit TransferRestrictionUpdated(true);
        for (uint256 i = 0; i < whitelist.length; ++i) {
            _setWhitelisted(whitelist[i], true);
        }
    }

    /// @inheritdoc IPoints
    function mint(address to, uint256 amount) external onlyRole(MINTER_ROLE) {
        _mint(to, amount);
    }

    /// @inheritdoc IPoints
    function burn(uint256 amount) external onlyRole(MINTER_ROLE) {
        _burn(msg.sender, amount);
    }

    /// @inheritdoc IPoints
    function addToTransferWhitelist(address account) external onlyRole(DEFAULT_ADMIN_ROLE) {
        _setWhitelisted(account, true);
    }

    /// @inheritdoc IPoints
    function removeFromTransferWhitelist(address account) external onlyRole(DEFAULT_ADMIN_ROLE) {
        _setWhitelisted(account, false);
    }

    /// @inheritdoc IPoints
    function setTransferRestricted(bool restricted) external onlyRole(DEFAULT_ADMIN_ROLE) {
        PointsStorage storage $ = _getPointsStorage();
        if ($.transferRestricted == restricted) return;
        $.transferRestricted = restricted;
        emit TransferRestrictionUpdated(restricted);
    }

    /// @notice ERC-2612 permit; blocked while paused.
    function permit(
        address owner,
        address spender,
        uint256 value,
        uint256 deadline,
        uint8 v,
        bytes32 r,
        bytes32 s
    ) public override whenNotPaused {
        super.permit(owner, spender, value, deadline, v, r, s);
    }

    /// @inheritdoc IPoints
    function isTransferWhitelisted(address account) external view returns (bool) {
        return _getPointsStorage().holders[account].whitelisted;
    }

    /// @inheritdoc IPoints
    function transferRestricted() external view returns (bool) {
        return _getPointsStorage().transferRestricted;
    }

    /// @notice SP balance of `account`.
    function balanceOf(address account) public view override returns (uint256) {
        return _getPointsStorage().holders[account].balance;
    }

    /// @notice Total SP in existence.
    function totalSupply() public view override returns (uint256) {
        return _getPointsStorage().totalSupply;
    }

    /// @dev Replaces ERC20's balance bookkeeping (see the contract's note). The restriction
    /// flag is read only when a party is unlisted, so listed-to-listed transfers skip it.
    function _update(address from, address to, uint256 value) internal override {
        _requireNotPaused();
        PointsStorage storage $ = _getPointsStorage();
        if (from == address(0)) {
            uint256 supply = $.totalSupply + value;
            if (supply > type(uint248).max) revert SupplyCapExceeded(supply, type(uint248).max);
            $.totalSupply = supply;
        } else {
            Holder storage sender = $.holders[from];
            uint256 balance = sender.balance;
            if (balance < value) revert ERC20InsufficientBalance(from, balance, value);
            if (to != address(0) && !sender.whitelisted && $.transferRestricted) {
                revert TransferNotWhitelisted(from);
            }
            // Cannot underflow: checked above.
            unchecked {
                // Cannot truncate: at most the balance, a uint248.
                // forge-lint: disable-next-line(unsafe-typecast)
                sender.balance = uint248(balance - value);
            }
        }
        if (to == address(0)) {
            // Cannot underflow: value <= the sender's balance <= total supply.
            unchecked {
                $.totalSupply -= value;
            }
        } else {
            Holder storage receiver = $.holders[to];
            if (!receiver.whitelisted && $.transferRestricted) revert TransferNotWhitelisted(to);
            // Cannot overflow: every balance is at most the total supply, capped at 2^248 - 1.
            unchecked {
                // Cannot truncate either: value <= total supply <= 2^248 - 1.
                // forge-lint: disable-next-line(unsafe-typecast)
                receiver.balance += uint248(value);
            }
        }
        emit Transfer(from, to, value);
    }

    function _setWhitelisted(address account, bool whitelisted) private {
        if (account == address(0)) revert ZeroAddress();
        Holder storage holder = _getPointsStorage().holders[account];
        if (holder.whitelisted == whitelisted) return;
        holder.whitelisted = whitelisted;
        emit TransferWhitelistUpdated(account, whitelisted);
    }

    function _getPointsStorage() private pure returns (PointsStorage storage $) {
        assembly {
            $.slot := POINTS_STORAGE
        }
    }
}
