import { useEffect, useState } from "react";
import { useWallet } from "../../wallet/wallet";
import { useDash, useLoad } from "../context";

/** Every ledger answer names the block it is consistent with (null: the indexer has not reached the program). */
export interface LedgerAnswer {
  blockNumber: number | null;
}

/** Where the ledger stands against the chain: `behind` shows the "catching up" notice. */
export interface LedgerStand {
  block: number | null;
  head: number | null;
  behind: boolean;
}

/**
 * Blocks the ledger may trail the chain before the page says it is catching up: above the
 * API's default confirmation depth (docs/architecture.md#the-ledger), so a ledger at work
 * never reads as late.
 */
export const LAG_BLOCKS = 5;
/** How often a page re-reads while the ledger is behind the chain. */
const BEHIND_POLL_MS = 1500;
/** How often it re-reads while the ledger trails by its confirmation depth only. */
const TRAILING_POLL_MS = 5000;

/** The chain's head through the wallet's RPC when it is on the program's chain (one call, no log scan). */
function useHead() {
  const wallet = useWallet();
  const { program } = useDash();
  return async () => {
    const provider = wallet.provider();
    if (!provider || String(wallet.chainId) !== program.chainId) return null;
    return provider.getBlockNumber().catch(() => null);
  };
}

/**
 * Loads a ledger read like useLoad, and re-reads by itself until the ledger reached the chain's
 * head, so a transaction just mined shows up without a reload.
 */
export function useLedger<T extends LedgerAnswer>(f: () => Promise<T>, deps: unknown[]) {
  const head = useHead();
  const { chainId } = useWallet();
  const [tick, setTick] = useState(0);
  // Read again once the wallet's chain is known (it appears after ethers loads): the head comes from it.
  const r = useLoad(async () => {
    const [data, h] = await Promise.all([f(), head()]);
    return { data, head: h };
  }, [...deps, tick, chainId]);
  const block = r.value?.data.blockNumber ?? null;
  const chainHead = r.value?.head ?? null;
  const behind = !!r.value && (block === null || (chainHead !== null && chainHead - block > LAG_BLOCKS));
  const trailing = !!r.value && chainHead !== null && block !== null && chainHead > block;
  useEffect(() => {
    if (!behind && !trailing) return;
    const t = setTimeout(() => setTick((x) => x + 1), behind ? BEHIND_POLL_MS : TRAILING_POLL_MS);
    return () => clearTimeout(t);
  }, [behind, trailing, r.value]);
  const stand: LedgerStand = { block, head: chainHead, behind };
  return { value: r.value?.data ?? null, error: r.error, loading: r.loading, stand };
}
