// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IPSPVault} from "../interfaces/IPSPVault.sol";

/// @title PSPVaultRows
/// @notice How the PSPVault emits a row's event ({IPSPVault.PSPMinted}, {IPSPVault.PSPSettled},
/// {IPSPVault.PSPExpired}: all carry `(amount, metadata)` as data) and credits issued rows. The
/// data is encoded once per call and each row only writes its amount; a batch mint's rows run
/// in one assembly loop. Together they keep a batch row near its floor (one balance write, the
/// event, the row's calldata).
abstract contract PSPVaultRows {
    /// @dev Where {_rowData} encoded the rows' event data in memory, and its length.
    struct RowData {
        uint256 ptr;
        uint256 size;
    }

    /// @dev One issued row. The balance cannot overflow unchecked: if the rows' total passes
    /// the budget, {_issue} reverts the whole call, and a budget never passes the SP supply.
    function _credit(
        mapping(address => uint256) storage balances,
        bytes32 campaignId,
        address to,
        uint256 amount,
        RowData memory data
    ) internal {
        if (to == address(0)) revert IPSPVault.ZeroAddress();
        if (amount == 0) revert IPSPVault.ZeroAmount();
        unchecked {
            balances[to] += amount;
        }
        // emit PSPMinted(campaignId, msg.sender, to, amount, metadata), over data encoded once;
        // written out rather than through {_logRow}: one call less on every single mint.
        bytes32 topic = IPSPVault.PSPMinted.selector;
        (uint256 ptr, uint256 size) = (data.ptr, data.size);
        assembly ("memory-safe") {
            mstore(ptr, amount)
            log4(ptr, size, topic, campaignId, caller(), to)
        }
    }

    /// @dev `emit event(campaignId, account, amount, metadata)` for an event with two indexed
    /// fields (`topic` its selector), over data encoded once by {_rowData}.
    function _logRow(RowData memory data, uint256 amount, bytes32 topic, bytes32 campaignId, address account) internal {
        (uint256 ptr, uint256 size) = (data.ptr, data.size);
        assembly ("memory-safe") {
            mstore(ptr, amount)
            log3(ptr, size, topic, campaignId, account)
        }
    }

    /// @dev The same for an event with three indexed fields: `(campaignId, a, b, amount, metadata)`.
    function _logRow(
        RowData memory data,
        uint256 amount,
        bytes32 topic,
        bytes32 campaignId,
        address a,
        address b
    ) internal {
        (uint256 ptr, uint256 size) = (data.ptr, data.size);
        assembly ("memory-safe") {
            mstore(ptr, amount)
            log4(ptr, size, topic, campaignId, a, b)
        }
    }

    /// @dev {_credit} for every row of a batch, with the same checks, writes and event, in one
    /// assembly loop: rows are read by offset (the decoder checked both arrays lie within
    /// calldata, {_requireBatch} that they are as long), so no per-row bounds check or call.
    /// Returns the rows' total; an overflowing total panics (0x11) as checked arithmetic does.
    function _creditRows(
        mapping(address => uint256) storage balances,
        bytes32 campaignId,
        address[] calldata to,
        uint256[] calldata amounts,
        RowData memory data
    ) internal returns (uint256 total) {
        bytes32 topic = IPSPVault.PSPMinted.selector;
        assembly ("memory-safe") {
            let ptr := mload(data)
            let size := mload(add(data, 0x20))
            // The arrays' own offsets walk the rows; `to.length` counts those left.
            for {} to.length {} {
                let account := calldataload(to.offset)
                // As the ABI decoder does: an address word with high bits set is malformed.
                if shr(160, account) {
                    revert(0, 0)
                }
                if iszero(account) {
                    mstore(0, 0xd92e233d00000000000000000000000000000000000000000000000000000000) // ZeroAddress()
                    revert(0, 4)
                }
                let amount := calldataload(amounts.offset)
                if iszero(amount) {
                    mstore(0, 0x1f2a200500000000000000000000000000000000000000000000000000000000) // ZeroAmount()
                    revert(0, 4)
                }
                // balances[account] += amount: cannot overflow, as in {_credit}.
                mstore(0, account)
                mstore(0x20, balances.slot)
                let slot := keccak256(0, 0x40)
                sstore(slot, add(sload(slot), amount))
                total := add(total, amount)
                if lt(total, amount) {
                    mstore(0, shl(224, 0x4e487b71)) // Panic(0x11), as checked arithmetic
                    mstore(4, 0x11)
                    revert(0, 0x24)
                }
                mstore(ptr, amount)
                log4(ptr, size, topic, campaignId, caller(), account)
                to.offset := add(to.offset, 0x20)
                amounts.offset := add(amounts.offset, 0x20)
                to.length := sub(to.length, 1)
            }
        }
    }

    /// @dev Transient slot seed of what a settle batch owes each receiver: keccak256
    /// ("points.PSPVault.settleBatch.owed"), a namespace no other transient slot shares.
    uint256 private constant _OWED_SEED = 0x92d43140b291d6dc32ddb191ab840049f48885c8e71d5a6610fdb551e34a76c3;

    /// @dev An empty list with room for `capacity` payees ({_owe} appends to it).
    function _payeeList(uint256 capacity) internal pure returns (address[] memory payees) {
        payees = new address[](capacity);
        assembly ("memory-safe") {
            mstore(payees, 0)
        }
    }

    /// @dev Adds `amount` to what the batch owes `receiver`, appending `receiver` to `payees` on
    /// its first row. Amounts are never zero ({_debit} reverts first), so a zero slot means not
    /// yet seen, and a sum cannot overflow (it is at most the batch's total of debited balances).
    /// `payees` never outgrows its capacity: one entry at most per row.
    function _owe(address[] memory payees, address receiver, uint256 amount) internal {
        assembly ("memory-safe") {
            mstore(0, receiver)
            mstore(0x20, _OWED_SEED)
            let slot := keccak256(0, 0x40)
            let owed := tload(slot)
            if iszero(owed) {
                let len := mload(payees)
                mstore(add(payees, shl(5, add(len, 1))), receiver)
                mstore(payees, add(len, 1))
            }
            tstore(slot, add(owed, amount))
        }
    }

    /// @dev What the batch owes `receiver`, clearing it: a later call in the same transaction
    /// starts from zero.
    function _takeOwed(address receiver) internal returns (uint256 owed) {
        assembly ("memory-safe") {
            mstore(0, receiver)
            mstore(0x20, _OWED_SEED)
            let slot := keccak256(0, 0x40)
            owed := tload(slot)
            tstore(slot, 0)
        }
    }

    /// @dev ABI-encodes a row event's data, `(amount, metadata)`, once per call with a zero
    /// amount word that each row overwrites ({_logRow}): a batch does not re-encode the
    /// metadata for every row.
    function _rowData(string calldata metadata) internal pure returns (RowData memory data) {
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
}
