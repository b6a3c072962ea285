/**
 * `pnpm bench:ledger` (third part): the campaigns and campaign-balances reads over a large
 * program on PostgreSQL (a scratch database at PG_TEST_URL). One program holds BENCH_STATE_EVENTS
 * (200,000) pSP mints over 20 campaigns and 50,000 holders, generated with SQL. Times the read as
 * it was (every PSPVault event of the program folded per request: foldPsp) against the state
 * tables (campaignsOf, pspHoldersPage: what the routes read now), and the one-off build of those
 * tables from the events (what a reorg or migration 081 does). Prints p50/p99 and the ratio.
 */
import { getAddress } from "ethers";
import { foldPsp, pspEvents } from "../src/core/ledger/state.js";
import { rebuildState } from "../src/core/ledger/materialise.js";
import { campaignsOf, onSnapshot, pspHoldersPage } from "../src/core/ledger/stateRead.js";
import { withScratchLedger } from "./helpers/scratchLedger.js";

const EVENTS = Number(process.env.BENCH_STATE_EVENTS ?? 200_000);
const CAMPAIGNS = 20;
const HOLDERS = 50_000;
const CREATOR = getAddress(`0x${"b".repeat(40)}`);

const stats = (times: number[]) => {
  const t = [...times].sort((a, b) => a - b);
  const p = (x: number) => t[Math.min(t.length - 1, Math.floor(t.length * x))]!;
  return { p50: p(0.5), p99: p(0.99) };
};
const fmt = (s: { p50: number; p99: number }) => `p50 ${s.p50.toFixed(1)} ms, p99 ${s.p99.toFixed(1)} ms`;

async function time(n: number, fn: () => Promise<unknown>) {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const s = performance.now();
    await fn();
    times.push(performance.now() - s);
  }
  return stats(times);
}

async function main() {
  await withScratchLedger(async (db) => {
    const t0 = performance.now();
    // Block 1: each campaign created and funded; then EVENTS mints, 50 a block.
    await db.exec(`
      INSERT INTO ledger_events (chain_id, block_number, log_index, block_hash, block_time, tx_hash, address,
        program_id, contract, event, args, campaign_id, accounts)
      SELECT '31337', 1, c * 2 + k, '0xh', 1700000000, md5(c::text), '0x04', 'acme', 'pspVault',
        CASE k WHEN 0 THEN 'CampaignCreated' ELSE 'CampaignFunded' END,
        CASE k WHEN 0 THEN jsonb_build_object('campaignId', '0xc' || c, 'creator', '${CREATOR}', 'metadata', 'm')
          ELSE jsonb_build_object('campaignId', '0xc' || c, 'amount', '1000000000') END,
        '0xc' || c, '{}'
      FROM generate_series(0, ${CAMPAIGNS - 1}) AS c, generate_series(0, 1) AS k;
      INSERT INTO ledger_events (chain_id, block_number, log_index, block_hash, block_time, tx_hash, address,
        program_id, contract, event, args, campaign_id, accounts)
      SELECT '31337', 2 + g / 50, g % 50, '0xh', 1700000000 + g / 50, md5(g::text), '0x04', 'acme', 'pspVault',
        'PSPMinted', jsonb_build_object('campaignId', '0xc' || (g % ${CAMPAIGNS}),
          'to', '0x' || lpad(to_hex(g % ${HOLDERS} + 1), 40, '0'), 'amount', '3', 'minter', '${CREATOR}'),
        '0xc' || (g % ${CAMPAIGNS}), ARRAY['0x' || lpad(to_hex(g % ${HOLDERS} + 1), 40, '0')]
      FROM generate_series(0, ${EVENTS - 1}) AS g;
      INSERT INTO ledger_programs (chain_id, program_id, source, points, factory, collateral_vault, psp_vault,
        from_block, synced_to) VALUES ('31337', 'acme', 'registry', '0x01', '0x02', '0x03', '0x04', 0, ${EVENTS / 50 + 2});
      ANALYZE ledger_events;
    `);
    console.log(
      `program state: ${EVENTS + CAMPAIGNS * 2} events of one program generated in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );

    // Before: each request folded every PSPVault event of the program.
    const foldRuns = Number(process.env.BENCH_FOLD_RUNS ?? 10);
    const beforeCampaigns = await time(foldRuns, async () => foldPsp(await pspEvents(db, "acme")).campaigns);
    const beforeBalances = await time(foldRuns, async () =>
      foldPsp(await pspEvents(db, "acme"))
        .balances.filter((b) => b.campaignId === "0xc7")
        .sort((a, b) => (a.holder.toLowerCase() < b.holder.toLowerCase() ? -1 : 1))
        .slice(0, 100),
    );

    const b0 = performance.now();
    await db.transaction((tx) => rebuildState(tx, "31337", ["acme"]));
    const buildS = (performance.now() - b0) / 1000;
    await db.exec("ANALYZE");
    const after = Number(process.env.BENCH_TABLE_RUNS ?? 300);
    const afterCampaigns = await time(after, () => onSnapshot(db, (q) => campaignsOf(q, "31337", "acme")));
    const afterBalances = await time(after, () =>
      onSnapshot(db, (q) => pspHoldersPage(q, "31337", "acme", "0xc7", undefined, 100)),
    );
    const [{ n }] = await db.query<{ n: string }>("SELECT count(*)::text AS n FROM ledger_psp_balances");
    console.log(`  state tables built from the events in ${buildS.toFixed(1)} s (${n} pSP balance rows)`);
    console.log(`  campaigns, fold per request (before): ${fmt(beforeCampaigns)} over ${foldRuns} runs`);
    console.log(`  campaigns, state tables (now):        ${fmt(afterCampaigns)} over ${after} runs`);
    console.log(`  balances page, fold (before):         ${fmt(beforeBalances)}`);
    console.log(`  balances page, state tables (now):    ${fmt(afterBalances)}`);
    console.log(
      `  p99 ratio before/now: campaigns ${(beforeCampaigns.p99 / afterCampaigns.p99).toFixed(0)}x, balances ${(beforeBalances.p99 / afterBalances.p99).toFixed(0)}x`,
    );
  });
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
