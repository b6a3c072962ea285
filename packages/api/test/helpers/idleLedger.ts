import { deployProgram, fundedCampaign, startNode, type DevNode, type ProgramRecord } from "@points/testkit";
import { ProgramRegistry, type Db } from "../../src/index.js";
import { startRpcProxy, type RpcCall, type RpcProxy } from "./rpcProxy.js";
import { memoryDb } from "./db.js";

/** The indexer's head request: the newest block's header (its number is the head). */
export const isHeadRequest = (c: RpcCall) => c.method === "eth_getBlockByNumber" && c.params[0] === "latest";

export interface IdleLedgerFixture {
  node: DevNode;
  db: Db;
  /** Counts what the indexer asks the node. */
  proxy: RpcProxy;
  program: ProgramRecord;
  usdc: string;
  campaignId: string;
  /** The ledger cursor's block (-1 before the first commit). */
  cursorAt(): Promise<number>;
  close(): Promise<void>;
}

/**
 * What the suites on an idle indexer share: a node with one registered program and a funded
 * campaign, an in-memory database, and a counting RPC proxy in front of the node.
 */
export async function idleLedgerFixture(): Promise<IdleLedgerFixture> {
  const node = await startNode();
  const db = await memoryDb();
  const { record: program, usdc } = await deployProgram(node.provider, "acme");
  await new ProgramRegistry(db).insert(program);
  const { campaignId } = await fundedCampaign(node.provider, program, usdc, "launch", 1000n);
  const proxy = await startRpcProxy(node.url);
  return {
    node,
    db,
    proxy,
    program,
    usdc,
    campaignId,
    cursorAt: async () =>
      Number((await db.query<{ n: string }>("SELECT block_number::text AS n FROM ledger_cursors"))[0]?.n ?? -1),
    close: async () => {
      await proxy.close();
      await db.close();
      await node.stop();
    },
  };
}
