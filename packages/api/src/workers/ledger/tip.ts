import { bloomMayHold } from "../../core/ledger/bloom.js";
import type { RpcHeader } from "../../core/ledger/rpc.js";
import type { BlockRef, FollowedProgram, RangeCommit } from "../../core/ledger/store.js";
import { num, rowOf } from "./rows.js";

/**
 * Whether a block holds no log of `addresses`: it has no transaction (an idle chain's blocks), or
 * its bloom, when trusted, lacks every one of them.
 */
function quietBlock(h: RpcHeader, addresses: string[], trustBloom: boolean): boolean {
  if (Array.isArray(h.transactions) && h.transactions.length === 0) return true;
  return trustBloom && !bloomMayHold(h.logsBloom, addresses);
}

/**
 * The newest headers an idle indexer's passes read, each the child of the one before (its
 * `parentHash`) and none with a logs bloom that may hold a log of the followed contracts
 * (packages/api/README.md#the-indexer). Blocks after the cursor that it covers need no eth_getLogs
 * and no header read: the bloom says they hold no log of ours, and the parent links say they are
 * one chain with the cursor's block. Any other header starts it again: a skipped block, a reorg,
 * a bloom that may hold a log; the step then reads the range as before.
 */
export class QuietTip {
  private headers: RpcHeader[] = [];
  /** The followed addresses the headers were checked against. */
  private checkedFor = "";

  /** `max`: the most headers kept (the oldest go first); `trustBloom`: the chain's `logsBloom` setting. */
  constructor(
    private readonly max: number,
    private readonly trustBloom: boolean,
  ) {}

  /** A header a pass read; `addresses` (lower case) are the followed contracts, `key` names that set. */
  saw(h: RpcHeader, addresses: string[], key: string): void {
    if (key !== this.checkedFor) {
      this.headers = [];
      this.checkedFor = key;
    }
    const last = this.headers[this.headers.length - 1];
    if (last?.hash === h.hash) return;
    const quiet = quietBlock(h, addresses, this.trustBloom);
    const child = last !== undefined && num(h.number) === num(last.number) + 1 && h.parentHash === last.hash;
    // Kept without the transactions' hashes (a busy chain's block lists hundreds).
    const kept = { number: h.number, hash: h.hash, parentHash: h.parentHash, timestamp: h.timestamp };
    if (!quiet) this.headers = [];
    else if (!child) this.headers = [kept];
    else if (this.headers.push(kept) > this.max) this.headers.shift();
  }

  /**
   * The header of block `to` when every block after `cursor` up to it is covered: quiet for the
   * followed set `key` names, and linked back to the cursor's own hash.
   */
  through(cursor: BlockRef, to: number, key: string): RpcHeader | undefined {
    const first = this.headers[0];
    if (!first || to <= cursor.number || key !== this.checkedFor) return undefined;
    const i = cursor.number + 1 - num(first.number);
    const j = to - num(first.number);
    if (i < 0 || j >= this.headers.length || this.headers[i]!.parentHash !== cursor.hash) return undefined;
    return this.headers[j];
  }
}

/** The commit of the blocks after `cursor` up to `end`, which a quiet tip covers: no event, `end`'s header stored. */
export function quietRange(programs: FollowedProgram[], cursor: BlockRef, end: RpcHeader): RangeCommit {
  return {
    events: [],
    blocks: [rowOf(end)],
    discovered: [],
    programIds: programs.map((p) => p.programId),
    to: { number: num(end.number), hash: end.hash },
    cursorFrom: cursor,
  };
}
