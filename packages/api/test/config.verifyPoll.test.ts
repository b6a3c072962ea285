import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { pino } from "pino";
import { loadConfig } from "../src/index.js";
import type { Ctx } from "../src/core/context.js";
import { createVerifyJob } from "../src/service.js";

const KEY = `0x${"1".repeat(64)}`;
const CHAINS = JSON.stringify([{ chainId: 31337, name: "Hardhat", rpcUrl: "http://127.0.0.1:8545" }]);
const jobOf = (env: Record<string, string>) => {
  const config = loadConfig({ EXECUTOR_PRIVATE_KEY: KEY, CHAINS, ...env });
  return createVerifyJob({ config, db: {}, logger: pino({ level: "silent" }) } as unknown as Ctx);
};

// Source verification polls on its own setting (it once took the onboarding worker's poll).
describe("config: VERIFY_POLL_MS", () => {
  it("set_isTheVerifyJobsPoll_notTheWorkers", () => {
    assert.equal(jobOf({ VERIFY_POLL_MS: "3456", WORKER_POLL_MS: "100" }).opts.pollMs, 3456);
  });

  it("unset_isTwoSeconds", () => {
    assert.equal(jobOf({}).opts.pollMs, 2000);
  });
});
