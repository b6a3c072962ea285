/**
 * `pnpm bench:ledger` (second part): a holder's history over ROWS (1,000,000) ledger rows on
 * PostgreSQL (a scratch database at PG_TEST_URL, rows generated with SQL: 10,000 holders, 50
 * programs' worth of noise, args and accounts like a PSPMinted's). Times QUERIES first pages
 * and as many next pages through the route's own query (eventsPage, limit 100) and prints p50,
 * p99 and max. Target: p99 <= 50 ms.
 */
import { eventsPage } from "../src/core/ledger/read.js";
import { withScratchLedger } from "./helpers/scratchLedger.js";

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 1000);
const HOLDERS = 10_000;

const holder = (i: number) => `0x${(i % HOLDERS).toString(16).padStart(40, "0")}`;

async function main() {
  await withScratchLedger(async (db) => {
    const t0 = performance.now();
    // Program "acme" holds a tenth of the rows; the rest belong to 49 other programs.
    await db.exec(`
      INSERT INTO ledger_events (chain_id, block_number, log_index, block_hash, block_time, tx_hash, address,
        program_id, contract, event, args, campaign_id, accounts)
      SELECT '31337', g / 50, g % 50, '0xhash', 1700000000 + g / 50, md5(g::text), '0x' || lpad('1', 40, '0'),
        CASE WHEN g % 10 = 0 THEN 'acme' ELSE 'p' || (g % 49) END, 'pspVault', 'PSPMinted',
        jsonb_build_object('campaignId', '0xc1', 'to', '0x' || lpad(to_hex(g % ${HOLDERS}), 40, '0'),
          'amount', '1', 'metadata', ''),
        '0xc1', ARRAY['0x' || lpad(to_hex(g % ${HOLDERS}), 40, '0'), '0x' || lpad('b', 40, '0')]
      FROM generate_series(1, ${ROWS}) AS g;
      INSERT INTO ledger_programs (chain_id, program_id, source, points, factory, collateral_vault, psp_vault,
        from_block, synced_to) VALUES ('31337', 'acme', 'registry', '0x', '0x', '0x', '0x', 0, ${ROWS / 50 + 1});
      ANALYZE ledger_events;
    `);
    console.log(`holder history: ${ROWS} ledger rows generated in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const at = ROWS / 50 + 1;
    const times: number[] = [];
    for (let q = 0; q < QUERIES; q++) {
      // Holders of "acme" (g % 10 = 0): every tenth holder index.
      const h = holder((q * 7919 * 10) % HOLDERS);
      const s = performance.now();
      const first = await eventsPage(db, "acme", { account: h }, at, undefined, 100);
      times.push(performance.now() - s);
      if (first.nextCursor) {
        const s2 = performance.now();
        await eventsPage(db, "acme", { account: h }, at, first.nextCursor, 100);
        times.push(performance.now() - s2);
      }
      if (q === 0) console.log(`  a holder's first page: ${first.events.length} events`);
    }
    times.sort((a, b) => a - b);
    const p = (x: number) => times[Math.min(times.length - 1, Math.floor(times.length * x))]!.toFixed(1);
    console.log(
      `  ${times.length} pages (limit 100) on PostgreSQL: p50 ${p(0.5)} ms, p99 ${p(0.99)} ms (target <= 50), max ${times[times.length - 1]!.toFixed(1)} ms`,
    );
  });
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
