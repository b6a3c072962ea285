import assert from "node:assert/strict";
import { createClient, PointsApiError, type PointsClient } from "../../src/index.js";
import type { Live } from "./live.js";

/** The issuer's salt in the order tests. */
export const SALT = "test-salt-0123456789";

/** A client whose build requests of the order routes (pSP mint, settle, expire) are counted. */
export function countingClient(live: Live) {
  const builds: string[] = [];
  const client = createClient({
    baseUrl: live.api.url,
    apiKey: live.apiKey,
    fetch: (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      if (/\/tx\/psp\/(mint|settle|expire)$/.test(new URL(url).pathname)) builds.push(new URL(url).pathname);
      return fetch(input, init);
    },
  });
  return { client, builds };
}

/** Waits until the in-process indexer (two blocks deep) has passed `block`; answers the order's lookup then. */
export async function ledgerPast(live: Live, client: PointsClient, ref: string, to: string, block: number) {
  await live.node.mine(2);
  let found = await client.orders.find(ref, { salt: SALT, to });
  while (found.ledgerBlock === null || found.ledgerBlock < block) {
    await new Promise((r) => setTimeout(r, 50));
    found = await client.orders.find(ref, { salt: SALT, to });
  }
  return found;
}

/** The API forgets a build's Idempotency-Key, as it does once `IDEMPOTENCY_TTL_HOURS` passed. */
export async function forgetKey(live: Live, key: string) {
  const rows = await live.api.service.ctx.db.query(
    "UPDATE build_idempotency SET expires_at = now() - interval '1 second' WHERE idempotency_key = $1 RETURNING owner",
    [key],
  );
  assert.equal(rows.length, 1, `the API kept ${key}`);
}

/** Asserts `run` is refused as an order reference reused with other terms: CONFLICT ORDER_REUSED, naming the first. */
export async function assertOrderReused(run: Promise<unknown>, firstHash: string): Promise<void> {
  await assert.rejects(run, (e: unknown) => {
    assert.ok(e instanceof PointsApiError);
    assert.equal(e.code, "CONFLICT");
    assert.deepEqual(e.details, { reason: "ORDER_REUSED", hash: firstHash });
    return true;
  });
}
