/**
 * `pnpm --filter @points/api bench:emptyCommit`: what a caught-up indexer's commit of an empty range
 * costs (one per `fullStepMs`, packages/api/README.md#the-indexer): the one statement
 * (core/ledger/emptyCommit.ts) against the transaction every other commit is (BEGIN, lease, cursor,
 * programs, block, prune, finalized read, COMMIT: a store with LEDGER_MAX_REORG_DEPTH 0 takes
 * it for every range), interleaved in blocks of BENCH_BLOCK (50) commits over BENCH_COMMITS (1,000)
 * each, on the embedded database (PGlite in memory) and on PostgreSQL at PG_TEST_URL (a scratch
 * database). Prints the API process's CPU-ms and wall-ms per commit each way, their ratio and the
 * load average beside them.
 */
import { loadavg } from "node:os";
import pino from "pino";
import type { Db } from "../src/core/db/db.js";
import { LedgerStore } from "../src/core/ledger/store.js";
import { memoryDb } from "../test/helpers/db.js";
import { withScratchLedger } from "./helpers/scratchLedger.js";

const COMMITS = Number(process.env.BENCH_COMMITS ?? 1000);
const BLOCK = Number(process.env.BENCH_BLOCK ?? 50);
const CHAIN = "31337";
const hash = (n: number) => "0x" + n.toString(16).padStart(64, "0");
const log = (s: string) => process.stderr.write(`${s}\n`);

interface Way {
  name: string;
  store: LedgerStore;
  cpuUs: number;
  wallMs: number;
}

async function measure(db: Db) {
  const logger = pino({ level: "silent" });
  await db.query(
    `INSERT INTO ledger_programs (chain_id, program_id, source, points, factory, collateral_vault, psp_vault,
       oracle, program_factory, from_block, synced_to)
     VALUES ($1, 'p1', 'registry', '0x01', '0x02', '0x03', '0x04', NULL, NULL, 1, 0)`,
    [CHAIN],
  );
  const ways: Way[] = [
    { name: "one statement", store: new LedgerStore(db, { logger }), cpuUs: 0, wallMs: 0 },
    { name: "transaction  ", store: new LedgerStore(db, { logger, maxReorgDepth: 0 }), cpuUs: 0, wallMs: 0 },
  ];
  await ways[0]!.store.lease(CHAIN, "bench", 60_000);
  let at = 1;
  await ways[0]!.store.initCursor(CHAIN, { number: at, hash: hash(at), time: at });
  const commit = (w: Way) => {
    const to = at + 1;
    const done = w.store.commit(CHAIN, "bench", 60_000, {
      events: [],
      blocks: [{ number: to, hash: hash(to), time: to }],
      discovered: [],
      programIds: ["p1"],
      to: { number: to, hash: hash(to) },
      cursorFrom: { number: at, hash: hash(at) },
    });
    at = to;
    return done;
  };
  // Warm-up: plans cached, the first finalized block announced.
  for (const w of ways) for (let i = 0; i < BLOCK; i++) await commit(w);
  const load0 = loadavg()[0]!;
  for (let done = 0; done < COMMITS; done += BLOCK) {
    for (const w of ways) {
      const t0 = performance.now();
      const c0 = process.cpuUsage();
      for (let i = 0; i < BLOCK; i++) await commit(w);
      const c = process.cpuUsage(c0);
      w.cpuUs += c.user + c.system;
      w.wallMs += performance.now() - t0;
    }
  }
  const load1 = loadavg()[0]!;
  const per = (w: Way) => ({ cpu: w.cpuUs / 1000 / COMMITS, wall: w.wallMs / COMMITS });
  for (const w of ways) {
    const p = per(w);
    log(`  ${w.name}  ${p.cpu.toFixed(3)} CPU-ms  ${p.wall.toFixed(3)} ms per commit`);
  }
  const [a, b] = ways.map(per);
  log(
    `  ratio (one statement / transaction): CPU ${(a!.cpu / b!.cpu).toFixed(2)}, wall ${(a!.wall / b!.wall).toFixed(2)}`,
  );
  log(`  1-min load average: ${load0.toFixed(2)} at the start, ${load1.toFixed(2)} at the end`);
}

async function main() {
  log(`${COMMITS} empty-range commits each way, interleaved in blocks of ${BLOCK}`);
  log("PGlite (in memory):");
  const lite = await memoryDb();
  try {
    await measure(lite);
  } finally {
    await lite.close();
  }
  log("PostgreSQL (PG_TEST_URL, scratch database):");
  await withScratchLedger(measure);
}

await main();
