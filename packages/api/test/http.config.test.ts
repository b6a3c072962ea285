import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { configProblems } from "./helpers/config.js";
import { createServer, type Server, type Socket } from "node:net";
import { loadConfig } from "../src/index.js";
import { explorerNames } from "../src/core/verify/explorers.js";
import { startApi, type TestApi } from "./helpers/service.js";
import { assertError, send } from "./helpers/http.js";
import { programRecord } from "./helpers/records.js";

const chain = (over: Record<string, unknown> = {}) => ({
  chainId: 31337,
  name: "Local",
  rpcUrl: "http://127.0.0.1:8545",
  ...over,
});

describe("http: configuration validated once at start", () => {
  it("loadConfig_listsEveryProblem_notJustTheFirst", () => {
    const lines = configProblems({
      CHAINS: "[{",
      PORT: "http",
      DATABASE_URL: "mysql://db/points",
      REQUIRE_API_KEY: "yes",
      RATE_LIMIT_PER_MINUTE_IP: "0",
      RPC_TIMEOUT_MS: "-5",
      LOG_LEVEL: "loud",
    });
    const vars = lines.map((l) => l.split(":")[0]).sort();
    assert.deepEqual(vars, [
      "CHAINS",
      "DATABASE_URL",
      "LOG_LEVEL",
      "PORT",
      "RATE_LIMIT_PER_MINUTE_IP",
      "REQUIRE_API_KEY",
      "RPC_TIMEOUT_MS",
    ]);
    assert.ok(lines.find((l) => l.startsWith("CHAINS"))!.includes("must be JSON"));
  });

  it("loadConfig_rejectsBadChains_namingTheEntryAndField", () => {
    assert.deepEqual(configProblems({ CHAINS: "{}" }), ["CHAINS: Invalid input: expected array, received object"]);
    assert.deepEqual(configProblems({ CHAINS: "[]" }), ["CHAINS: must list at least one chain"]);
    const lines = configProblems({
      CHAINS: JSON.stringify([
        chain({ rpcUrl: "ftp://node" }),
        chain({ chainId: 0, rpcUrl: "not a url", explorerUrl: "javascript:alert(1)", extra: true }),
      ]),
    });
    assert.ok(lines.includes("CHAINS.0.rpcUrl: must be an http:// or https:// URL"), lines.join("\n"));
    assert.ok(lines.includes("CHAINS.1.rpcUrl: must be an http:// or https:// URL"), lines.join("\n"));
    assert.ok(lines.includes("CHAINS.1.explorerUrl: must be an http:// or https:// URL"), lines.join("\n"));
    assert.ok(
      lines.some((l) => l.startsWith("CHAINS.1.chainId:")),
      lines.join("\n"),
    );
    assert.ok(
      lines.some((l) => l.startsWith("CHAINS.1:") && l.includes("extra")),
      lines.join("\n"),
    );
  });

  it("loadConfig_rejectsTheSameChainIdTwice", () => {
    const lines = configProblems({ CHAINS: JSON.stringify([chain(), chain({ name: "again" })]) });
    assert.deepEqual(lines, ["CHAINS: lists a chainId twice"]);
  });

  it("loadConfig_rejectsBadPorts_andBadDatabaseUrls", () => {
    for (const port of ["abc", "70000", "-1", "1e3", "0x10", "80.5"]) {
      assert.equal(configProblems({ PORT: port })[0].split(":")[0], "PORT", port);
    }
    for (const url of ["mysql://db/x", "postgres://", "localhost:5432/db", "postgres:///nohost"]) {
      assert.equal(configProblems({ DATABASE_URL: url })[0].split(":")[0], "DATABASE_URL", url);
    }
  });

  it("sourceVerifyOnEtherscan_needsETHERSCAN_API_KEY_andAnExplorerUrl_andTheKeyIsNeverSerialised", () => {
    const verifying = (extra: Record<string, unknown> = {}) =>
      JSON.stringify([chain({ sourceVerify: { etherscanApiUrl: "https://api.etherscan.io/v2/api" }, ...extra })]);
    assert.deepEqual(configProblems({ CHAINS: verifying({ explorerUrl: "https://basescan.org" }) }), [
      "ETHERSCAN_API_KEY: is required for chain 31337 (its sourceVerify.etherscanApiUrl is set)",
    ]);
    assert.deepEqual(configProblems({ CHAINS: verifying(), ETHERSCAN_API_KEY: "k1" }), [
      "CHAINS: chain 31337 needs an explorerUrl for its verified-source links",
    ]);
    assert.equal(configProblems({ ETHERSCAN_API_KEY: "key with spaces" })[0]!.split(":")[0], "ETHERSCAN_API_KEY");
    const c = loadConfig({
      CHAINS: verifying({ explorerUrl: "https://basescan.org" }),
      ETHERSCAN_API_KEY: "secret-k1",
    });
    assert.equal(c.explorerKey(), "secret-k1");
    assert.ok(!JSON.stringify(c).includes("secret-k1"));
    assert.deepEqual(explorerNames(c.chains[0]!), ["etherscan"]);
    assert.deepEqual(explorerNames(loadConfig({}).chains[0]!), [], "no explorer unless configured");
  });

  it("loadConfig_acceptsDefaults_andTreatsEmptyVariablesAsUnset", () => {
    const c = loadConfig({ PORT: "", DATABASE_URL: "", CHAINS: "" });
    assert.equal(c.port, 3000);
    assert.equal(c.databaseUrl, undefined);
    assert.equal(c.chains[0].rpcUrl, "http://127.0.0.1:8545");
    assert.equal(c.requireApiKey, false);
    const pg = loadConfig({ DATABASE_URL: "postgresql://postgres@127.0.0.1:5432/test", TRUST_PROXY: "1" });
    assert.equal(pg.databaseUrl, "postgresql://postgres@127.0.0.1:5432/test");
    assert.equal(pg.trustProxy, 1);
  });

  it("JOB_DRAIN_MS_boundsTheJobsDrainOnShutdown_10sByDefault", () => {
    assert.equal(loadConfig({}).jobDrainMs, 10_000);
    assert.equal(loadConfig({ JOB_DRAIN_MS: "2500" }).jobDrainMs, 2_500);
    for (const v of ["50", "600001", "ten", "-1"]) {
      assert.equal(configProblems({ JOB_DRAIN_MS: v })[0]?.split(":")[0], "JOB_DRAIN_MS", v);
    }
  });
});

describe("http: CHAIN_UNAVAILABLE 502 when the node is down or silent", () => {
  let silent: Server;
  const sockets: Socket[] = [];
  let refused: TestApi;
  let hanging: TestApi;
  const A = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
  const build = { input: { to: A, amount: "1" }, key: A };

  before(async () => {
    // Accepts connections and never answers: only the RPC timeout can end a request.
    silent = createServer((s) => void sockets.push(s));
    await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
    const port = (silent.address() as { port: number }).port;
    const env = { RPC_TIMEOUT_MS: "300" };
    refused = await startApi("http://127.0.0.1:9", env);
    hanging = await startApi(`http://127.0.0.1:${port}`, env);
    for (const api of [refused, hanging]) {
      await api.service.ctx.programs.insert(programRecord("acme"));
    }
  });
  after(async () => {
    await refused?.close();
    await hanging?.close();
    for (const s of sockets) s.destroy();
    await new Promise((r) => silent?.close(r));
  });

  for (const [label, get] of [
    ["closed port", () => refused],
    ["silent node", () => hanging],
  ] as const) {
    it(`${label}: aReadRoute_is502ChainUnavailable_quickly`, async () => {
      const started = Date.now();
      const res = await send(get().url, "GET", `/api/v1/evm/balance/${A}`);
      assertError(res, "CHAIN_UNAVAILABLE");
      assert.match(res.body.error.message, /chain 31337/);
      assert.ok(Date.now() - started < 3000, `took ${Date.now() - started} ms`);
    });

    it(`${label}: aBuildRoute_is502ChainUnavailable_quickly`, async () => {
      const started = Date.now();
      const res = await send(get().url, "POST", "/api/v1/build/transfer", {
        body: JSON.stringify(build),
        headers: { "content-type": "application/json" },
      });
      assertError(res, "CHAIN_UNAVAILABLE");
      assert.ok(Date.now() - started < 3000, `took ${Date.now() - started} ms`);
    });
  }
});
