import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:net";
import { JsonRpcProvider, Wallet, ZeroHash } from "ethers";
import { PointsApiError } from "../src/index.js";
import type { BulkPlan } from "../src/bulk.js";
import { startLive, type Live } from "./helpers/live.js";

/** A loopback port nothing listens on (taken, then released). */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

/** CHAIN_UNAVAILABLE naming what was read, with the refused connection as the cause. */
const chainDown = (during: string) => (e: unknown) => {
  assert.ok(e instanceof PointsApiError, `not a PointsApiError: ${String(e)}`);
  assert.equal(e.code, "CHAIN_UNAVAILABLE");
  assert.equal(e.status, undefined);
  assert.deepEqual(e.details, { during });
  assert.match(e.message, /^the chain's node did not answer/);
  assert.ok(e.cause !== undefined);
  return true;
};

// The API answers; the backend's own RPC (its signer's provider) is down.
describe("RPC down: every SDK failure is a PointsApiError with a code", () => {
  let live: Live;
  let signer: Wallet;
  before(async () => {
    live = await startLive();
    const down = new JsonRpcProvider(`http://127.0.0.1:${await deadPort()}`, 31337, { staticNetwork: true });
    signer = new Wallet(live.actors.brand.privateKey, down);
  });
  after(() => live?.stop());

  it("issuerIssue_isChainUnavailable_notARawEconnrefused", async () => {
    const issuer = live.client.issuer(signer, { salt: "a-salt-of-16-chars!" });
    const order = { orderRef: "ORD-1", campaignId: "none", to: live.actors.alice.address, amount: 1n };
    await assert.rejects(issuer.issue(order), chainDown("the signer's pending nonce"));
  });

  const plan = () =>
    ({
      operation: "mint",
      from: signer.address,
      fromBlock: 0,
      campaignId: { value: ZeroHash },
      chunks: [{ index: 0, metadata: "bulk:x:1/1", tx: { to: live.program.pspVault, from: signer.address } }],
    }) as unknown as BulkPlan;

  it("bulkSendAndLanded_areChainUnavailable", async () => {
    await assert.rejects(live.client.bulk.send(plan(), signer), chainDown("the bulk chunks' events"));
    await assert.rejects(live.client.bulk.landed(plan(), signer), chainDown("the bulk chunks' events"));
  });

  it("bulkPropose_ofAPlanWithoutSafeTransactions_isWrongSigner_notAPlainError", async () => {
    await assert.rejects(live.client.bulk.propose(plan()), (e: unknown) => {
      assert.ok(e instanceof PointsApiError);
      assert.deepEqual([e.code, e.details], ["WRONG_SIGNER", { index: 0 }]);
      return true;
    });
  });
});
