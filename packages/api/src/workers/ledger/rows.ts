import { decodeLog } from "../../core/ledger/decode.js";
import type { RpcBlock, RpcLog } from "../../core/ledger/rpc.js";
import type { BlockRow, EventRow } from "../../core/ledger/store.js";
import type { Watch } from "./watch.js";

/** A block hash that moved between two reads of one range: the range is read again. */
export class MovedUnderfoot extends Error {}

export const num = (hex: string) => Number(BigInt(hex));

/** A header as the ledger stores it. */
export const rowOf = (b: RpcBlock): BlockRow => ({ number: num(b.number), hash: b.hash, time: num(b.timestamp) });

/**
 * A range's logs as the rows the store commits, each decoded with its contract's ABI. A log's time
 * is its blockTimestamp, or, from a node whose logs lack it, its block's header in `headers`, which
 * must carry the log's block hash (else the block changed while the range was read).
 */
export function eventRowsOf(logs: RpcLog[], watch: Watch, headers: Map<number, RpcBlock>): EventRow[] {
  return logs.map((log) => {
    const n = num(log.blockNumber);
    let time: number;
    if (log.blockTimestamp !== undefined) time = num(log.blockTimestamp);
    else {
      const header = headers.get(n);
      if (!header || header.hash !== log.blockHash) throw new MovedUnderfoot(`block ${n} changed while it was read`);
      time = num(header.timestamp);
    }
    const w = watch.get(log.address.toLowerCase())!;
    return {
      ...decodeLog(w.contract, log),
      blockNumber: n,
      logIndex: num(log.logIndex),
      blockHash: log.blockHash,
      blockTime: time,
      txHash: log.transactionHash,
      address: log.address,
      programId: w.programId,
      contract: w.contract,
    };
  });
}
