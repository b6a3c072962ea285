import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { placeholderProgram } from "./helpers/records.js";
import { startApi, type TestApi, bearerFor } from "./helpers/service.js";
import { inventedKeyLookups } from "./helpers/inventedKeys.js";

/** The status and error code of an API answer. */
const codeOf = (res: { status: number; body: unknown }) => [
  res.status,
  (res.body as { error?: { code?: string } }).error?.code,
];

const CLOSED_PORT = "http://127.0.0.1:9";
const KEY = `0x${"1".repeat(64)}`;
const A = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

// These budgets are a few requests and the limiter counts every one, so the document hook's
// own fetch of /api/v1/openapi.json would spend one: these answers are checked by hand.
process.env.API_DOCUMENT_HOOK = "off";
const CHAINS = JSON.stringify([
  { chainId: 31337, name: "Hardhat", rpcUrl: CLOSED_PORT },
  { chainId: 1, name: "Ethereum", rpcUrl: CLOSED_PORT, testnet: false },
]);
const transfer = (brand: string) => ({ program: brand, key: A, input: { to: A, amount: "1" } });

describe("safety: build routes are no free proxy to a paid RPC", () => {
  const apis: TestApi[] = [];
  const start = async (env: Record<string, string> = {}) => {
    const api = await startApi(CLOSED_PORT, { CHAINS, EXECUTOR_PRIVATE_KEY: KEY, ...env });
    await api.service.ctx.programs.insert(placeholderProgram("1", "mainbrand", "11"));
    await api.service.ctx.programs.insert(placeholderProgram("31337", "devbrand", "55"));
    apis.push(api);
    return api;
  };
  after(async () => {
    for (const api of apis) await api.close();
  });

  it("anonymousBuildOnMainnet_isRefused_beforeAnyRpcCall", async () => {
    const api = await start();
    const res = await api.call("POST", "/api/v1/build/transfer", transfer("mainbrand"));
    assert.equal(res.status, 401);
    assert.deepEqual(res.body, {
      success: false,
      error: {
        code: "UNAUTHORIZED",
        message:
          "building transactions on chain 1 (Ethereum, not a testnet) needs an API key (Authorization: Bearer <key>)",
      },
    });
    // With a key, or on a testnet, the build goes on to the chain (a closed port here: 502).
    const auth = { ...(await bearerFor(api.service, "builder")) };
    const keyed = await api.call("POST", "/api/v1/build/transfer", transfer("mainbrand"), auth);
    assert.deepEqual(codeOf(keyed), [502, "CHAIN_UNAVAILABLE"]);
    const testnet = await api.call("POST", "/api/v1/build/transfer", transfer("devbrand"));
    assert.deepEqual(codeOf(testnet), [502, "CHAIN_UNAVAILABLE"]);
  });

  it("operatorOptOut_PUBLIC_MAINNET_BUILDS_keepsMainnetBuildsOpen", async () => {
    const api = await start({ PUBLIC_MAINNET_BUILDS: "1" });
    const open = await api.call("POST", "/api/v1/build/transfer", transfer("mainbrand"));
    assert.deepEqual(codeOf(open), [502, "CHAIN_UNAVAILABLE"]);
  });
});

describe("safety: invented credentials stop costing database lookups", () => {
  let api: TestApi;
  before(async () => {
    api = await startApi(CLOSED_PORT, { RATE_LIMIT_PER_MINUTE_IP: "2", RATE_LIMIT_PER_MINUTE_KEY: "3" });
  });
  after(async () => {
    await api?.close();
  });

  it("floodOfInventedApiKeys_costsAtMostOneBudgetOfKeyLookups", async () => {
    const keys = api.service.ctx.keys;
    const verify = keys.verify.bind(keys);
    let lookups = 0;
    keys.verify = (key: string) => {
      lookups++;
      return verify(key);
    };
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) {
      const res = await api.call("GET", "/health", undefined, { authorization: `Bearer pk_invented${i}` });
      statuses.push(res.status);
    }
    assert.deepEqual(statuses, [200, 200, 429, 429, 429, 429, 429, 429, 429, 429]);
    // Two lookups spend the IP's budget; the other eight never reach the database.
    assert.equal(lookups, 2);
  });
});

describe("safety: invented credentials from one IPv6 prefix count as one client", () => {
  let api: TestApi;
  before(async () => {
    api = await startApi(CLOSED_PORT, { RATE_LIMIT_PER_MINUTE_IP: "2", TRUST_PROXY: "1" });
  });
  after(async () => {
    await api?.close();
  });

  it("rotatingAddressesInsideOneSlash56_buysNoFreshKeyLookups", async () => {
    // Ten addresses of 2001:db8::/56 are one client: its budget of two lookups, then none.
    assert.equal(await inventedKeyLookups([api], (i) => `2001:db8:0:${i}::${i + 1}`, 10), 2);
  });
});
