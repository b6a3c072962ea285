/**
 * A webhook receiver in its own process for bench/ledgerHead.ts (a brand's backend is not the
 * API's process): the real receiver of the tests (signatures verified with standardwebhooks),
 * its URL printed first; the subscription's secret is read from stdin; then one line per accepted
 * delivery: `webhook-id blockNumber arrivalMs` (blockNumber -1: a duplicate webhook-id).
 */
import { createInterface } from "node:readline";
import { startReceiver } from "../test/helpers/receiver.js";

async function main() {
  const rx = await startReceiver();
  rx.state.beforeAnswer = (id) => {
    const last = rx.state.accepted[rx.state.accepted.length - 1];
    process.stdout.write(`${id} ${last?.id === id ? last.blockNumber : -1} ${Date.now()}\n`);
  };
  process.stdout.write(`${rx.url}\n`);
  for await (const line of createInterface({ input: process.stdin })) rx.state.secret = line.trim();
  process.on("SIGTERM", () => void rx.close().then(() => process.exit(0)));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
