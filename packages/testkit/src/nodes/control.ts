import { toQuantity, type JsonRpcProvider } from "ethers";
import type { NodeKind } from "./kind.js";

/** Where a later {@link NodeControl.reorg} goes back to: a Hardhat snapshot, or the block anvil keeps. */
export interface ReorgPoint {
  block: number;
  snapshot?: string;
}

/**
 * What tests ask of a dev node beyond standard JSON-RPC, in one shape for every node. The methods and their units
 * differ: Hardhat's `evm_setIntervalMining` takes milliseconds and anvil's seconds; anvil's mining modes exclude each
 * other (an interval replaces automine, interval 0 stops mining) where Hardhat's combine; anvil reorgs natively
 * (`anvil_reorg`) and Hardhat only through snapshots. Both discard reorged-out transactions (geth re-queues them).
 */
export interface NodeControl {
  /** Mines a block for every transaction (on) or only when asked or on the interval (off). */
  setAutomine(on: boolean): Promise<void>;
  /** A block every `ms` (0: none). anvil counts whole seconds: a shorter interval is one second there. */
  setIntervalMining(ms: number): Promise<void>;
  /** Mines `blocks` blocks now (default 1). */
  mine(blocks?: number): Promise<void>;
  /** Mines one block with this timestamp (seconds). */
  mineAt(timestamp: number): Promise<void>;
  setBalance(address: string, wei: bigint): Promise<void>;
  /** The base fee of the next block (a fee spike). */
  setNextBaseFee(wei: bigint): Promise<void>;
  /** Removes a pending transaction from the node's mempool (a drop); true when it was there. */
  dropTransaction(hash: string): Promise<boolean>;
  setCode(address: string, code: string): Promise<void>;
  /** Moves the next block's timestamp `seconds` ahead. */
  increaseTime(seconds: number): Promise<void>;
  /** The head now, to reorg back to later. */
  reorgPoint(): Promise<ReorgPoint>;
  /**
   * Replaces every block after `point` with as many new empty blocks, plus `extra` more: the transactions in the
   * replaced blocks are gone. On Hardhat the state goes back to the point's snapshot (taken by {@link reorgPoint}).
   */
  reorg(point: ReorgPoint, opts?: { extra?: number }): Promise<void>;
}

const hex = (n: number | bigint) => toQuantity(n);

export function nodeControl(kind: NodeKind, provider: JsonRpcProvider): NodeControl {
  const send = (method: string, params: unknown[] = []) => provider.send(method, params);
  const prefix = kind === "anvil" ? "anvil" : "hardhat";
  const mine = async (blocks = 1) => {
    if (blocks > 0) await send(`${prefix}_mine`, [hex(blocks)]);
  };
  return {
    setAutomine: async (on) => {
      await send("evm_setAutomine", [on]);
    },
    setIntervalMining: async (ms) => {
      await send("evm_setIntervalMining", [
        kind === "anvil" ? (ms === 0 ? 0 : Math.max(1, Math.round(ms / 1000))) : ms,
      ]);
    },
    mine,
    mineAt: async (timestamp) => {
      await send("evm_mine", [timestamp]);
    },
    setBalance: async (address, wei) => {
      await send(`${prefix}_setBalance`, [address, hex(wei)]);
    },
    setNextBaseFee: async (wei) => {
      await send(`${prefix}_setNextBlockBaseFeePerGas`, [hex(wei)]);
    },
    dropTransaction: async (hash) => {
      const r = await send(`${prefix}_dropTransaction`, [hash]);
      // Hardhat answers a boolean; anvil the dropped hash, or null.
      return kind === "anvil" ? r !== null : r === true;
    },
    setCode: async (address, code) => {
      await send(`${prefix}_setCode`, [address, code]);
    },
    increaseTime: async (seconds) => {
      await send("evm_increaseTime", [seconds]);
    },
    reorgPoint: async () => {
      const block = await provider.getBlockNumber();
      return kind === "anvil" ? { block } : { block, snapshot: await send("evm_snapshot") };
    },
    reorg: async (point, opts = {}) => {
      const head = await provider.getBlockNumber();
      const depth = head - point.block;
      if (kind === "anvil") {
        if (depth > 0) await send("anvil_reorg", [depth, []]);
      } else {
        await send("evm_revert", [point.snapshot]);
        await mine(depth);
      }
      await mine(opts.extra ?? 0);
    },
  };
}
