import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { configProblems } from "./helpers/config.js";
import { loadConfig } from "../src/index.js";

const KEY = `0x${"1".repeat(64)}`;
const SECRET = "s".repeat(32);
const chains = (...cs: Record<string, unknown>[]) => JSON.stringify(cs.map((c) => ({ name: "C", ...c })));
const DEV_KEY_REFUSED = (ids: string) =>
  `EXECUTOR_PRIVATE_KEY: is required for chain ${ids} (the public development key serves only a dev chain id on a loopback RPC outside production)`;

describe("safety: the service refuses to start on settings that hand out money or accounts", () => {
  it("remoteNodeReportingDevChainId_doesNotGetThePublicDevKey", () => {
    // Anyone can run a node that calls itself 31337: the public key would sign on it.
    const env = { CHAINS: chains({ chainId: 31337, rpcUrl: "https://rpc.example.com" }) };
    assert.deepEqual(configProblems(env), [DEV_KEY_REFUSED("31337")]);
    assert.equal(loadConfig({ ...env, EXECUTOR_PRIVATE_KEY: KEY }).executorKey(31337), KEY);
  });

  it("realChainOnLoopbackRpc_doesNotGetThePublicDevKey", () => {
    const env = { CHAINS: chains({ chainId: 1, rpcUrl: "http://127.0.0.1:8545", testnet: false }) };
    assert.deepEqual(configProblems(env), [DEV_KEY_REFUSED("1")]);
  });

  it("productionOnALocalDevChain_doesNotGetThePublicDevKey", () => {
    const lines = configProblems({
      NODE_ENV: "production",
      CONSOLE_SECRET: SECRET,
      SMTP_URL: "smtp://mail.example.com",
      CHAINS: chains({ chainId: 31337, rpcUrl: "http://127.0.0.1:8545" }),
    });
    assert.deepEqual(lines, [DEV_KEY_REFUSED("31337")]);
  });

  it("devChainOnLoopbackOutsideProduction_stillRunsWithTheDevKey", () => {
    const config = loadConfig({ CHAINS: chains({ chainId: 31337, rpcUrl: "http://localhost:8545" }) });
    assert.equal(config.executorKey(31337), "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80");
  });

  it("productionWithoutSmtp_refusesToStart_ratherThanDroppingSignInCodes", () => {
    assert.deepEqual(
      configProblems({
        NODE_ENV: "production",
        CONSOLE_SECRET: SECRET,
        EXECUTOR_PRIVATE_KEY: KEY,
        EXECUTOR_ALLOW_LOCAL_KEY: "true",
      }),
      ["SMTP_URL: is required when NODE_ENV=production (sign-in codes must reach their owner by e-mail)"],
    );
  });

  it("devMailboxSwitchedOnInProduction_refusesToStart", () => {
    const lines = configProblems({
      NODE_ENV: "production",
      CONSOLE_SECRET: SECRET,
      EXECUTOR_PRIVATE_KEY: KEY,
      EXECUTOR_ALLOW_LOCAL_KEY: "true",
      SMTP_URL: "smtp://mail.example.com",
      DEV_MAILBOX: "1",
    });
    assert.deepEqual(lines, ["DEV_MAILBOX: must be off when NODE_ENV=production"]);
  });

  it("devMailbox_isOffUnlessAskedFor", () => {
    assert.equal(loadConfig({}).console.devMailbox, false);
    assert.equal(loadConfig({ DEV_MAILBOX: "1" }).console.devMailbox, true);
  });

  it("trustProxyTrue_isRefused_soNoClientCanNameItsOwnIp", () => {
    const msg = "TRUST_PROXY: must be the number of reverse proxies in front of the service (a hop count)";
    for (const v of ["true", "loopback", "0.0.0.0/0"]) assert.deepEqual(configProblems({ TRUST_PROXY: v }), [msg]);
    assert.equal(loadConfig({ TRUST_PROXY: "2" }).trustProxy, 2);
  });
});
