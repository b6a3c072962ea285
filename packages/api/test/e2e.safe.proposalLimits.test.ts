import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import {
  devSafe,
  devWallet,
  execSafeTx,
  plainSafeTx,
  safeTx,
  startFaultProxy,
  startNode,
  type DevNode,
  type FaultProxy,
} from "@points/testkit";
import { bearerFor, startApi, type TestApi } from "./helpers/service.js";

const CAP = 3;
const TIMEOUT_MS = 5000;

// Safe proposals cost chain reads on every list: one key holds at most CAP open proposals per
// Safe, the list answers a page at a time, and a node failing under a real Safe is
// CHAIN_UNAVAILABLE, never "not a Safe".
describe("e2e: Safe proposals: a cap of open proposals per key and Safe, a paged list, RPC errors as such", () => {
  let node: DevNode;
  let proxy: FaultProxy;
  let api: TestApi;
  let keyA: Record<string, string>;
  let keyB: Record<string, string>;
  let safe: Awaited<ReturnType<typeof devSafe>>;
  let other: Awaited<ReturnType<typeof devSafe>>;
  const created: string[] = [];

  before(async () => {
    node = await startNode();
    proxy = await startFaultProxy(node.url);
    api = await startApi(proxy.url, {
      CHAINS: JSON.stringify([{ chainId: 31337, name: "Hardhat", rpcUrl: proxy.url, blockTimeMs: 200 }]),
      SAFE_OPEN_PROPOSALS_PER_SAFE: String(CAP),
      // Short enough for the slow-node case below, long enough for a loaded machine.
      RPC_TIMEOUT_MS: String(TIMEOUT_MS),
    });
    safe = await devSafe(node.provider);
    other = await devSafe(node.provider, { infra: safe.infra, saltNonce: 1n });
    [keyA, keyB] = await Promise.all([bearerFor(api.service, "a"), bearerFor(api.service, "b")]);
  });
  after(async () => {
    await api?.close();
    await proxy?.close();
    await node?.stop();
  });

  /** A proposal of an empty call to the Safe itself at `nonce`. */
  const propose = (auth: Record<string, string>, address: string, nonce: number) =>
    api.call(
      "POST",
      "/api/v1/safe/proposals",
      { chainId: 31337, safe: address, tx: plainSafeTx(address, "0x", nonce) },
      auth,
    );
  const list = (auth: Record<string, string>, query = "") =>
    api.call("GET", `/api/v1/safe/proposals${query}`, undefined, auth);
  type ListBody = { data: { proposals: { id: string; safe: string }[]; nextCursor: string | null } };

  it("create_beyondTheCapOfOpenProposals_is409TooManyOpenProposals_whileAnotherKeyAndAnotherSafeStillPropose", async () => {
    for (let nonce = 0; nonce < CAP; nonce++) {
      const res = await propose(keyA, safe.address, nonce);
      assert.equal(res.status, 201, JSON.stringify(res.body));
      created.push((res.body as { data: { id: string } }).data.id);
    }
    const refused = await propose(keyA, safe.address, CAP);
    assert.equal(refused.status, 409, JSON.stringify(refused.body));
    assert.deepEqual(refused.body, {
      success: false,
      error: {
        code: "CONFLICT",
        message: `this key already has ${CAP} open proposals of Safe ${safe.address}; execute or replace some first`,
        details: { reason: "TOO_MANY_OPEN_PROPOSALS", safe: safe.address, limit: CAP, next: "0" },
      },
    });
    assert.equal((await propose(keyB, safe.address, CAP)).status, 201);
    const elsewhere = await propose(keyA, other.address, 0);
    assert.equal(elsewhere.status, 201);
    created.push((elsewhere.body as { data: { id: string } }).data.id);
  });

  it("create_inParallel_beyondTheCap_storesExactlyTheCap", async () => {
    const all = await Promise.all([0, 1, 2, 3, 4, 5].map((n) => propose(keyB, other.address, n)));
    assert.deepEqual(all.map((r) => r.status).sort(), [201, 201, 201, 409, 409, 409]);
  });

  it("create_afterTheSafesNonceMovedPastAProposal_countsItNoLonger_andTakesANewOne", async () => {
    // Nonce 0 runs on chain (outside the API): the key's nonce-0 proposal is replaced, a slot frees.
    const tx = await safeTx(node.provider, safe.address, { to: safe.address, data: "0x" });
    await execSafeTx(devWallet(9, node.provider), safe.address, tx, safe.owners.slice(0, 2));
    const res = await propose(keyA, safe.address, CAP);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    created.push((res.body as { data: { id: string } }).data.id);
    assert.equal((await propose(keyA, safe.address, CAP + 1)).status, 409);
  });

  it("list_isPaginatedWithACursor_newestFirst_eachProposalOnce", async () => {
    const first = await list(keyA, "?limit=2");
    assert.equal(first.status, 200, JSON.stringify(first.body));
    const p1 = (first.body as ListBody).data;
    const newest = [...created].reverse();
    assert.deepEqual(
      p1.proposals.map((p) => p.id),
      newest.slice(0, 2),
    );
    assert.equal(p1.nextCursor, newest[1]);
    const second = (await list(keyA, `?limit=2&cursor=${p1.nextCursor}`)).body as ListBody;
    assert.deepEqual(
      second.data.proposals.map((p) => p.id),
      newest.slice(2, 4),
    );
    assert.equal(second.data.nextCursor, newest[3]);
    const last = (await list(keyA, `?limit=2&cursor=${second.data.nextCursor}`)).body as ListBody;
    assert.deepEqual(
      last.data.proposals.map((p) => p.id),
      newest.slice(4),
    );
    assert.equal(last.data.nextCursor, null);
    // The default page holds them all; key B sees only its own (one of safe, CAP of other).
    assert.equal(((await list(keyA)).body as ListBody).data.proposals.length, created.length);
    assert.equal(((await list(keyB)).body as ListBody).data.proposals.length, 1 + CAP);
  });

  it("list_refusesALimitOver100_400_andACursorOfAnotherKey_404", async () => {
    const big = await list(keyA, "?limit=101");
    assert.equal(big.status, 400);
    assert.equal((big.body as { error: { code: string } }).error.code, "INVALID_INPUT");
    const foreign = await list(keyB, `?cursor=${created[0]}`);
    assert.equal(foreign.status, 404);
    assert.deepEqual((foreign.body as { error: unknown }).error, {
      code: "NOT_FOUND",
      message: `no proposal ${created[0]} of this key to page after`,
      details: { cursor: created[0] },
    });
  });

  it("aNodeDownOrTooSlowUnderTheSafesViews_isChainUnavailable502_notNotASafe404_whileAContractWithoutThemIs404", async () => {
    // The node answers eth_getCode, then goes away before the Safe's view calls.
    proxy.faults.afterAnswer = (calls) => {
      if (calls.some((c) => c.method === "eth_getCode")) proxy.faults.down = true;
    };
    try {
      const res = await propose(keyB, safe.address, 5);
      assert.equal(res.status, 502, JSON.stringify(res.body));
      assert.deepEqual(res.body, {
        success: false,
        error: { code: "CHAIN_UNAVAILABLE", message: "chain 31337 (Hardhat) did not answer" },
      });
    } finally {
      proxy.faults.afterAnswer = undefined;
      proxy.faults.down = false;
    }
    // The same with a node that answers too late (after RPC_TIMEOUT_MS).
    proxy.faults.afterAnswer = (calls) => {
      if (calls.some((c) => c.method === "eth_getCode")) proxy.faults.delayMs = TIMEOUT_MS + 1000;
    };
    try {
      const res = await list(keyA);
      assert.equal(res.status, 502, JSON.stringify(res.body));
      assert.equal((res.body as { error: { code: string } }).error.code, "CHAIN_UNAVAILABLE");
    } finally {
      proxy.faults.afterAnswer = undefined;
      proxy.faults.delayMs = 0;
    }
    // A contract (the Safe proxy factory) that does not answer the Safe's views.
    const factory = safe.infra.proxyFactory;
    const notSafe = await propose(keyB, factory, 0);
    assert.equal(notSafe.status, 404, JSON.stringify(notSafe.body));
    assert.deepEqual((notSafe.body as { error: { details: unknown } }).error.details, {
      reason: "NOT_A_SAFE",
      safe: factory,
    });
  });
});
