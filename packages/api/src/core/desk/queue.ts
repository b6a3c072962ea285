import { getAddress } from "ethers";
import type { Target } from "../program/target.js";
import { contract, read } from "../program/target.js";

export interface PendingRequest {
  requestId: string;
  requester: string;
  asset: string;
  to: string;
  amount: string;
  readyAt: number;
  ready: boolean;
}

const PENDING = 1n;
const MAX_PENDING = 500;
// Per Factory, the lowest id that was pending at the last scan: ids below it were finalized,
// cancelled or rejected, and a request never becomes pending again, so scans start there.
const scanFrom = new Map<string, bigint>();

/**
 * The pending redemption requests of a program, oldest first, read from the chain (the
 * Factory's own records; the ledger may be off). `ready`: readyAt has passed at the latest block.
 */
export async function pendingRequests(t: Target): Promise<{ pending: PendingRequest[]; blockTime: number }> {
  const factory = contract(t, "factory");
  const key = `${t.program.chainId}:${t.program.factory}`;
  const [count, block] = await read(t, "factory", () =>
    Promise.all([factory.getFunction("redeemRequestCount")() as Promise<bigint>, t.chain.provider.getBlock("latest")]),
  );
  const blockTime = Number(block?.timestamp ?? 0);
  const from = scanFrom.get(key) ?? 1n;
  const ids: bigint[] = [];
  for (let id = from; id <= count; id++) ids.push(id);
  // The provider batches these calls (100 per JSON-RPC batch).
  const rows = await read(t, "factory", () =>
    Promise.all(
      ids.map((id) =>
        Promise.all([factory.getFunction("getRedeemRequest")(id), factory.getFunction("redeemReadyAt")(id)]),
      ),
    ),
  );
  const pending: PendingRequest[] = [];
  rows.forEach(([r, readyAt], i) => {
    if (BigInt(r.status) !== PENDING) return;
    pending.push({
      requestId: ids[i]!.toString(),
      requester: getAddress(r.requester),
      asset: getAddress(r.asset),
      to: getAddress(r.to),
      amount: r.amount.toString(),
      readyAt: Number(readyAt),
      ready: Number(readyAt) <= blockTime,
    });
  });
  scanFrom.set(key, pending.length ? BigInt(pending[0]!.requestId) : count + 1n);
  return { pending: pending.slice(0, MAX_PENDING), blockTime };
}
