import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { configProblems } from "./helpers/config.js";
import { loadConfig } from "../src/index.js";

const chain = (chainId: number, blockTimeMs?: number) => ({
  chainId,
  name: `chain ${chainId}`,
  rpcUrl: "https://rpc.example.com",
  ...(blockTimeMs === undefined ? {} : { blockTimeMs }),
});
const KEY = `0x${"1".repeat(64)}`;
const pollOf = (env: Record<string, string>) => loadConfig({ EXECUTOR_PRIVATE_KEY: KEY, ...env }).ledger.pollMs;

// How often an idle indexer asks for the head (docs in the API README, "Head latency").
describe("config: LEDGER_POLL_MS", () => {
  it("unset_isAQuarterOfTheFastestChainsBlockTime", () => {
    assert.equal(pollOf({ CHAINS: JSON.stringify([chain(31337, 1000)]) }), 250);
    assert.equal(pollOf({ CHAINS: JSON.stringify([chain(8453, 2000), chain(1, 12_000)]) }), 500);
    assert.equal(pollOf({ CHAINS: JSON.stringify([chain(8453)]) }), 250, "blockTimeMs defaults to 1000");
  });

  it("unset_staysWithin50And1000ms", () => {
    assert.equal(pollOf({ CHAINS: JSON.stringify([chain(1, 12_000)]) }), 1000, "slow chains: once a second");
    assert.equal(pollOf({ CHAINS: JSON.stringify([chain(42161, 100)]) }), 50, "fast chains: not below 50 ms");
  });

  it("set_winsOverTheBlockTime", () => {
    assert.equal(pollOf({ CHAINS: JSON.stringify([chain(1, 12_000)]), LEDGER_POLL_MS: "100" }), 100);
  });

  it("malformed_isRefused", () => {
    const CHAINS = JSON.stringify([chain(1)]);
    assert.deepEqual(configProblems({ CHAINS, LEDGER_POLL_MS: "1e3" }), ["LEDGER_POLL_MS: must be a whole number"]);
    assert.deepEqual(configProblems({ CHAINS, LEDGER_POLL_MS: "5" }), ["LEDGER_POLL_MS: must be at least 10"]);
  });
});
