import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { callRoute, fetchRoute, PointsApiError } from "../src/index.js";

/** An unsigned approval as a WOULD_REVERT's prerequisite carries it (fields as the API sends them). */
const PREREQUISITE = {
  tx: "Ag==",
  from: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
  to: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
  data: "0x095ea7b3",
  value: "0",
  nonce: 0,
  chainId: "31337",
  call: { contract: "usdc", function: "approve", args: [] },
};

/** A fetch that answers every call with one error envelope. */
const answering =
  (status: number, body: unknown): typeof fetch =>
  async () =>
    new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

const wouldRevert = answering(422, {
  success: false,
  error: { code: "WOULD_REVERT", message: "needs an allowance", details: { prerequisite: PREREQUISITE } },
});
const route = { method: "post", path: "/api/v1/vault/mint" } as const;

async function errorOf(p: Promise<unknown>): Promise<PointsApiError> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  assert.ok(e instanceof PointsApiError);
  return e;
}

describe("transport: fetchRoute is callRoute without the transaction helpers", () => {
  it("callRoute_prerequisite_isSignable", async () => {
    const e = await errorOf(callRoute({ baseUrl: "http://api.test", fetch: wouldRevert }, route, { body: {} }));
    assert.equal(e.code, "WOULD_REVERT");
    assert.equal(e.status, 422);
    assert.equal(e.prerequisite?.to, PREREQUISITE.to);
    assert.equal(typeof e.prerequisite?.send, "function");
  });

  it("fetchRoute_sameError_prerequisiteOnlyInDetails", async () => {
    const e = await errorOf(fetchRoute({ baseUrl: "http://api.test", fetch: wouldRevert }, route, { body: {} }));
    assert.equal(e.code, "WOULD_REVERT");
    assert.equal(e.status, 422);
    assert.equal(e.message, "needs an allowance");
    assert.equal(e.prerequisite, undefined);
    assert.deepEqual((e.details as { prerequisite: unknown }).prerequisite, PREREQUISITE);
  });

  // A page that only talks to the API (the console's sign-in) bundles this module: no ethers in it.
  it("transportModule_importsNoEthers", () => {
    const src = readFileSync(new URL("../src/transport.ts", import.meta.url), "utf8");
    const imports = [...src.matchAll(/^import .* from "([^"]+)";$/gm)].map((m) => m[1]).sort();
    assert.deepEqual(imports, ["./errors.js", "./types.js"]);
    const errors = readFileSync(new URL("../src/errors.ts", import.meta.url), "utf8");
    assert.deepEqual([...errors.matchAll(/^import (?!type ).* from "([^"]+)";$/gm)], []);
  });
});
