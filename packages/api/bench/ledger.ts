/**
 * `pnpm bench:ledger`: the ledger's backfill. A local node holds BENCH_EVENTS (100,000) pSP
 * mints of one program, BENCH_PER_BLOCK (50) per block; a fresh indexer (PGlite in memory, or
 * PostgreSQL at BENCH_DATABASE_URL) indexes the chain from the program's deploy block through a
 * counting RPC proxy. Prints events per second and the RPC requests (HTTP) and calls it made.
 * The indexer also writes the program state tables in each commit. The holder-history query is
 * bench/ledgerQuery.ts and the state reads bench/ledgerState.ts (run after this one); the head
 * latency (block to webhook receiver) is bench/ledgerHead.ts (`pnpm bench:ledger:head`).
 */
import { actors, deployProgram, fundedCampaign, startNode } from "@points/testkit";
import { ProgramRegistry, migrate, openDb } from "../src/index.js";
import { startRpcProxy } from "../test/helpers/rpcProxy.js";
import { indexerOn } from "../test/helpers/ledger.js";
import { mintSigner } from "./helpers/signedMints.js";

const EVENTS = Number(process.env.BENCH_EVENTS ?? 100_000);
const PER_BLOCK = Number(process.env.BENCH_PER_BLOCK ?? 50);
const log = (s: string) => process.stderr.write(`${s}\n`);

async function main() {
  const node = await startNode();
  try {
    const { record, usdc } = await deployProgram(node.provider, "acme");
    const { campaignId } = await fundedCampaign(node.provider, record, usdc, "bench", 1_000_000n);
    const { brand, alice } = actors(node.provider);
    const signMint = mintSigner(record, brand.privateKey, campaignId, alice.address);
    // Blocks of PER_BLOCK mints: automine off, the transactions sent in batches, then one block mined.
    await node.setAutomine(false);
    let nonce = await node.provider.getTransactionCount(brand.address);
    const started = Date.now();
    for (let sent = 0; sent < EVENTS; sent += PER_BLOCK) {
      const n = Math.min(PER_BLOCK, EVENTS - sent);
      const raws = await Promise.all(Array.from({ length: n }, (_, i) => signMint(nonce + i)));
      nonce += n;
      await Promise.all(raws.map((raw) => node.provider.send("eth_sendRawTransaction", [raw])));
      await node.mine();
      if ((sent / PER_BLOCK) % 100 === 0) log(`  ${sent + n} / ${EVENTS} mints sent`);
    }
    await node.setAutomine(true);
    const head = await node.provider.getBlockNumber();
    log(`chain ready: ${EVENTS} mints in ${((Date.now() - started) / 1000).toFixed(1)} s, head ${head}`);

    const db = await openDb(
      process.env.BENCH_DATABASE_URL
        ? { databaseUrl: process.env.BENCH_DATABASE_URL, dataDir: "unused" }
        : { dataDir: "memory://" },
    );
    await migrate(db);
    await db.exec(
      "DELETE FROM ledger_events; DELETE FROM ledger_blocks; DELETE FROM ledger_cursors; DELETE FROM ledger_programs; DELETE FROM programs; " +
        "DELETE FROM ledger_campaigns; DELETE FROM ledger_campaign_minters; DELETE FROM ledger_campaign_members; DELETE FROM ledger_psp_balances; DELETE FROM ledger_sp_balances; DELETE FROM ledger_allowlists; DELETE FROM ledger_role_holders",
    );
    await new ProgramRegistry(db).insert(record);
    const proxy = await startRpcProxy(node.url);
    const indexer = indexerOn(db, proxy.url, { confirmations: 0 });
    const t0 = performance.now();
    await indexer.catchUp("31337");
    const seconds = (performance.now() - t0) / 1000;
    await indexer.stop();
    const [{ n }] = await db.query<{ n: string }>("SELECT count(*)::text AS n FROM ledger_events");
    const calls = proxy.methods();
    const by = (m: string) => calls.filter((c) => c === m).length;
    console.log(
      `ledger backfill (${db.kind}): ${n} events over ${head - record.blockNumber + 1} blocks in ${seconds.toFixed(2)} s`,
    );
    console.log(`  ${(Number(n) / seconds).toFixed(0)} events/s (target >= 2,000)`);
    console.log(
      `  RPC: ${proxy.requests.length} HTTP requests, ${calls.length} calls (eth_getLogs ${by("eth_getLogs")}, eth_getBlockByNumber ${by("eth_getBlockByNumber")}, eth_blockNumber ${by("eth_blockNumber")})`,
    );
    await proxy.close();
    await db.close();
  } finally {
    await node.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
