/**
 * `pnpm bench:ledger:head`: the ledger at the head. A local node mines a block every second
 * (BENCH_BLOCK_MS, 1000); pSP mints are sent at a steady BENCH_OPS_PER_SECOND (50) for
 * BENCH_SECONDS (60); the indexer (confirmation depth 2) and the webhook dispatcher run on one
 * database (PGlite in memory, or PostgreSQL at BENCH_DATABASE_URL) with the poll intervals
 * LEDGER_POLL_MS and WEBHOOK_POLL_MS (defaults: the service's, a quarter block, and 100); a real local
 * HTTP receiver verifies every signature. For each PSPMinted delivered: the time from the block
 * that holds it appearing on the node (polled every 25 ms) to the receiver getting it. Prints
 * p50/p95/p99 (target p99 <= 3.5 s), the operations sent and the events delivered.
 */
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { setTimeout as sleep } from "node:timers/promises";
import { pino } from "pino";
import { actors, deployProgram, fundedCampaign, startNode } from "@points/testkit";
import { ProgramRegistry, migrate, openDb } from "../src/index.js";
import { ledgerPollMs } from "../src/core/config/env.js";
import { WebhookDispatcher } from "../src/workers/webhooks/dispatcher.js";
import { insertSubscription } from "../src/core/webhooks/store.js";
import { indexerOn } from "../test/helpers/ledger.js";
import { mintSigner } from "./helpers/signedMints.js";

const BLOCK_MS = Number(process.env.BENCH_BLOCK_MS ?? 1000);
const OPS = Number(process.env.BENCH_OPS_PER_SECOND ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
// The service's own default for this block time unless set.
const LEDGER_POLL_MS = Number(process.env.LEDGER_POLL_MS ?? ledgerPollMs([{ blockTimeMs: BLOCK_MS }]));
const WEBHOOK_POLL_MS = Number(process.env.WEBHOOK_POLL_MS ?? 100);
const log = (s: string) => process.stderr.write(`${s}\n`);

async function main() {
  const node = await startNode();
  const db = await openDb(
    process.env.BENCH_DATABASE_URL
      ? { databaseUrl: process.env.BENCH_DATABASE_URL, dataDir: "unused" }
      : { dataDir: "memory://" },
  );
  // The receiver runs in its own process, as a brand's backend would.
  const child = spawn(
    process.execPath,
    ["--import", "tsx", fileURLToPath(new URL("receiverProcess.ts", import.meta.url))],
    {
      stdio: ["pipe", "pipe", "inherit"],
    },
  );
  const got: { id: string; block: number; at: number }[] = [];
  const url = await new Promise<string>((resolve) => {
    let first = true;
    createInterface({ input: child.stdout! }).on("line", (line) => {
      if (first) {
        first = false;
        resolve(line.trim());
        return;
      }
      const [id, block, at] = line.split(" ");
      got.push({ id: id!, block: Number(block), at: Number(at) });
    });
  });
  const accepted = () => got.filter((g) => g.block >= 0);
  try {
    await migrate(db);
    const { record, usdc } = await deployProgram(node.provider, "acme");
    const { campaignId } = await fundedCampaign(node.provider, record, usdc, "head", 1_000_000n);
    await new ProgramRegistry(db).insert(record);
    const { brand, alice } = actors(node.provider);
    const indexer = indexerOn(db, node.url, { confirmations: 2, pollMs: LEDGER_POLL_MS });
    await indexer.catchUp("31337");
    const from = await node.provider.getBlockNumber();
    const sub = await insertSubscription(db, {
      owner: "bench",
      programId: "acme",
      chainId: "31337",
      url,
      eventTypes: ["PSPMinted"],
      campaignId: null,
      holder: null,
      fromBlock: from,
    });
    child.stdin!.write(`${sub.secret}\n`);
    const dispatcher = new WebhookDispatcher(db, pino({ level: "silent" }), {
      allowPrivate: true,
      timeoutMs: 5000,
      retryMinMs: 100,
      retryWindowMs: 600_000,
      pollMs: WEBHOOK_POLL_MS,
      leaseMs: 30_000,
      concurrency: 32,
      ownerConcurrency: 4,
    });

    // Blocks every BLOCK_MS; each block's first sighting is its time.
    await node.setAutomine(false);
    await node.provider.send("evm_setIntervalMining", [BLOCK_MS]);
    const seen = new Map<number, number>();
    let watching = true;
    const watcher = (async () => {
      while (watching) {
        const n = await node.provider.getBlockNumber();
        for (let b = n; b > from && !seen.has(b); b--) seen.set(b, Date.now());
        await sleep(25);
      }
    })();
    // As the service wires them in one process (src/service.ts).
    indexer.store.subscribe(dispatcher.onLedgerEvent);
    indexer.start();
    dispatcher.start();

    const signMint = mintSigner(record, brand.privateKey, campaignId, alice.address);
    let nonce = await node.provider.getTransactionCount(brand.address, "pending");
    // Signed beforehand: the measured process only sends (a wallet's signing would load its event loop).
    const raws: string[] = [];
    for (let i = 0; i < OPS * SECONDS; i++) raws.push(await signMint(nonce++, "head"));
    let sent = 0;
    const t0 = Date.now();
    const sends: Promise<unknown>[] = [];
    // Steady: operation i leaves at t0 + i / OPS seconds.
    while (sent < OPS * SECONDS) {
      const due = t0 + (sent * 1000) / OPS;
      if (due > Date.now()) await sleep(due - Date.now());
      sends.push(node.provider.send("eth_sendRawTransaction", [raws[sent]]));
      sent++;
      if (sent % (OPS * 5) === 0) {
        const [r] = await db.query<{ synced: string; queued: string; done: string }>(
          `SELECT (SELECT synced_to::text FROM ledger_programs WHERE program_id = 'acme') AS synced,
             (SELECT count(*)::text FROM webhook_deliveries) AS queued,
             (SELECT count(*)::text FROM webhook_deliveries WHERE status = 'delivered') AS done`,
        );
        log(`  ${sent} sent; head ${seen.size + from}, ledger ${r!.synced}, ${r!.queued} queued, ${r!.done} delivered`);
      }
    }
    await Promise.all(sends);
    const rate = sent / ((Date.now() - t0) / 1000);
    log(`sent ${sent} operations at ${rate.toFixed(1)}/s; waiting for the last deliveries`);
    const deadline = Date.now() + 60_000;
    while (accepted().length < sent && Date.now() < deadline) await sleep(100);
    const [end] = await db.query<{ synced: string; queued: string; done: string }>(
      `SELECT (SELECT synced_to::text FROM ledger_programs WHERE program_id = 'acme') AS synced,
         (SELECT count(*)::text FROM webhook_deliveries) AS queued,
         (SELECT count(*)::text FROM webhook_deliveries WHERE status = 'delivered') AS done`,
    );
    log(`  end: head ${seen.size + from}, ledger ${end!.synced}, ${end!.queued} queued, ${end!.done} delivered`);
    const [{ mined }] = await db.query<{ mined: string }>(
      "SELECT count(*)::text AS mined FROM ledger_events WHERE program_id = 'acme' AND event = 'PSPMinted' AND block_number > $1",
      [from],
    );
    watching = false;
    await watcher;
    await dispatcher.stop();
    await indexer.stop();

    const latencies = accepted()
      .filter((r) => seen.has(r.block))
      .map((r) => r.at - seen.get(r.block)!)
      .sort((a, b) => a - b);
    const p = (x: number) =>
      (latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * x))]! / 1000).toFixed(2);
    console.log(
      `ledger head (${db.kind}): ${BLOCK_MS} ms blocks, confirmation depth 2, LEDGER_POLL_MS ${LEDGER_POLL_MS}, WEBHOOK_POLL_MS ${WEBHOOK_POLL_MS}`,
    );
    console.log(
      `  ${sent} operations sent at ${rate.toFixed(1)}/s over ${SECONDS} s; ${accepted().length} events delivered (${got.length - accepted().length} duplicates), ${mined} mints indexed`,
    );
    console.log(
      `  block to receiver: p50 ${p(0.5)} s, p95 ${p(0.95)} s, p99 ${p(0.99)} s (target p99 <= 3.5 s), max ${p(1)} s`,
    );
  } finally {
    child.kill("SIGTERM");
    await db.close();
    await node.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
