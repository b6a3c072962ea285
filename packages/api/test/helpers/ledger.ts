import { setTimeout as sleep } from "node:timers/promises";
import { pino } from "pino";
import { id, parseUnits, type JsonRpcProvider, type Wallet } from "ethers";
import { Factory__factory, MockStablecoin__factory, PSPVault__factory, Points__factory } from "@points/contracts";
import { actors, type ProgramRecord } from "@points/testkit";
import type { Db } from "../../src/index.js";
import type { ChainConfig } from "../../src/core/config/env.js";
import { LedgerIndexer, type LedgerOptions } from "../../src/workers/ledger/indexer.js";
import { startApi, type TestApi } from "./service.js";
import { campaignsOf, pspBalances } from "../../src/core/ledger/stateRead.js";

/** Fast settings for tests: index the head, small ranges, quick retries. */
export const TEST_LEDGER: LedgerOptions = {
  confirmations: 0,
  range: 2000,
  pollMs: 50,
  leaseMs: 5000,
  rpcTimeoutMs: 5000,
  retry: { retries: 8, minMs: 5, maxMs: 40 },
};

export function indexerOn(
  db: Db,
  rpcUrl: string,
  opts: Partial<LedgerOptions> = {},
  chainOpts: Partial<ChainConfig> = {},
): LedgerIndexer {
  const chain = {
    chainId: 31337,
    name: "Hardhat",
    rpcUrl,
    explorerUrl: null,
    testnet: true,
    blockTimeMs: 1000,
    ...chainOpts,
  };
  return new LedgerIndexer(db, [chain], pino({ level: "silent" }), { ...TEST_LEDGER, ...opts });
}

/** The ledger's campaigns and balances of a program, as the read routes answer them (the state tables). */
export async function ledgerState(db: Db, programId: string, chainId = "31337") {
  return { campaigns: await campaignsOf(db, chainId, programId), balances: await pspBalances(db, chainId, programId) };
}

/** The chain's own views of what the ledger claims: every campaign and every (campaign, holder). */
export async function chainState(
  provider: JsonRpcProvider,
  program: Pick<ProgramRecord, "pspVault">,
  campaignIds: string[],
  holders: string[],
) {
  const vault = PSPVault__factory.connect(program.pspVault, provider);
  const campaigns = [];
  for (const cid of campaignIds) {
    const c = await vault.getCampaign(cid);
    campaigns.push({
      campaignId: cid,
      budget: c.budget,
      available: c.available,
      outstanding: c.outstanding,
      creator: c.creator,
      status: ([null, "active", "paused", "closed"] as const)[Number(c.status)],
    });
  }
  const balances = [];
  for (const cid of campaignIds) {
    for (const h of holders) {
      const balance = await vault.balanceOf(cid, h);
      if (balance !== 0n) balances.push({ campaignId: cid, holder: h, balance });
    }
  }
  return { campaigns, balances };
}

/** The ledger's view in the shape of {@link chainState}, for deepEqual. */
export async function ledgerComparable(db: Db, programId: string) {
  const s = await ledgerState(db, programId);
  return {
    campaigns: s.campaigns.map((c) => ({
      campaignId: c.campaignId,
      budget: c.budget,
      available: c.available,
      outstanding: c.outstanding,
      creator: c.creator,
      status: c.status,
    })),
    balances: s.balances,
  };
}

export const sortBalances = <T extends { campaignId: string; holder: string }>(b: T[]) =>
  [...b].sort((x, y) => (x.campaignId + x.holder < y.campaignId + y.holder ? -1 : 1));

/** The brand wallet buys `sp` SP with mock USDC and lets the PSPVault take it (budgets, funding). */
export async function brandBuysSp(provider: JsonRpcProvider, program: ProgramRecord, usdc: string, sp: bigint) {
  const { brand } = actors(provider);
  const amount = parseUnits(sp.toString(), 6);
  await (await MockStablecoin__factory.connect(usdc, brand).mint(brand.address, amount)).wait();
  await (await MockStablecoin__factory.connect(usdc, brand).approve(program.factory, amount)).wait();
  await (await Factory__factory.connect(program.factory, brand).mint(usdc, amount, brand.address)).wait();
  await (
    await Points__factory.connect(program.points, brand).approve(program.pspVault, parseUnits(sp.toString(), 18))
  ).wait();
}

export const vaultAs = (program: Pick<ProgramRecord, "pspVault">, w: Wallet) =>
  PSPVault__factory.connect(program.pspVault, w);

export { id };

/**
 * An API indexing the head with no confirmation depth, `program` registered (as `programId`), a read key named
 * `keyName`; resolves once the ledger has reached the chain's current block.
 */
export async function ledgerApiAtHead(
  nodeUrl: string,
  provider: JsonRpcProvider,
  program: ProgramRecord,
  programId: string,
  keyName: string,
  timeoutMs = 30_000,
): Promise<{ api: TestApi; auth: Record<string, string>; head: number }> {
  const head = await provider.getBlockNumber();
  const api = await startApi(nodeUrl, { LEDGER: "inline", LEDGER_CONFIRMATIONS: "0", LEDGER_POLL_MS: "20" });
  await api.service.ctx.programs.insert(program);
  const auth = { authorization: `Bearer ${(await api.service.ctx.keys.create(keyName, ["read"])).key}` };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = await api.service.ctx.db.query<{ n: string }>(
      "SELECT synced_to::text AS n FROM ledger_programs WHERE program_id = $1",
      [programId],
    );
    if (Number(rows[0]?.n ?? -1) >= head) return { api, auth, head };
    if (Date.now() > deadline) {
      await api.close();
      throw new Error("the ledger did not reach the head");
    }
    await sleep(20);
  }
}
