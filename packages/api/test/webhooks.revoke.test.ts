import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { pino } from "pino";
import { startApi, type TestApi, bearerFor } from "./helpers/service.js";
import { placeholderProgram } from "./helpers/records.js";
import { assertError, send } from "./helpers/http.js";
import { startReceiver } from "./helpers/receiver.js";
import { WebhookDispatcher } from "../src/workers/webhooks/dispatcher.js";

const HOOKS = "/api/v1/ledger/webhooks";
const OPERATOR = "/api/v1/operator/webhooks";

// docs/architecture.md#webhooks: revoking a key stops what it set running, and the operator can
// list, hold, release and delete any tenant's subscription.
describe("webhooks: a revoked key's subscriptions stop; the operator controls every subscription", () => {
  let api: TestApi;
  let dispatcher: WebhookDispatcher;
  let programId = "";
  let block = 2;

  before(async () => {
    api = await startApi("http://127.0.0.1:9", {
      WEBHOOKS: "off",
      WEBHOOK_ALLOW_PRIVATE: "true",
      RPC_TIMEOUT_MS: "500",
    });
    await api.service.ctx.programs.insert(placeholderProgram());
    dispatcher = new WebhookDispatcher(api.service.ctx.db, pino({ level: "silent" }), {
      allowPrivate: true,
      timeoutMs: 10_000,
      retryMinMs: 10,
      retryWindowMs: 600_000,
      pollMs: 20,
      leaseMs: 30_000,
      concurrency: 4,
      ownerConcurrency: 2,
    });
  });
  after(async () => {
    await dispatcher?.stop();
    await api?.close();
  });

  const json = (headers: Record<string, string>) => ({ "content-type": "application/json", ...headers });
  const subscribe = (headers: Record<string, string>, webhookUrl: string) =>
    send(api.url, "POST", HOOKS, { body: JSON.stringify({ webhookUrl }), headers: json(headers) });

  /** The indexer's work for one new confirmed event of the program (the ledger is synced past it). */
  async function newEvent() {
    const db = api.service.ctx.db;
    block++;
    await db.query(
      `INSERT INTO ledger_programs (chain_id, program_id, source, points, factory, collateral_vault, psp_vault,
         from_block, synced_to) VALUES ('31337', $1, 'registry', '0x01', '0x02', '0x03', '0x04', 1, $2)
       ON CONFLICT (chain_id, program_id) DO UPDATE SET synced_to = EXCLUDED.synced_to`,
      [programId, block],
    );
    await db.query(
      `INSERT INTO ledger_events (chain_id, block_number, log_index, block_hash, block_time, tx_hash, address,
         program_id, contract, event, args, campaign_id, accounts)
       VALUES ('31337', $1::bigint, 0, $2, 1700000000, $2, '0x0000000000000000000000000000000000000004', $3, 'pspVault', 'PSPMinted', '{}', '0xc1', '{}')`,
      [block, `0x${block.toString(16).padStart(64, "0")}`, programId],
    );
  }

  it("attack_aRevokedKeysWebhook_getsZeroDeliveriesAfterRevocation_andTheOperatorCannotResumeIt", async (t) => {
    const rx = await startReceiver();
    t.after(() => rx.close());
    const { key, info } = await api.service.ctx.keys.create("tenant", ["build", "read"]);
    const created = await subscribe({ authorization: `Bearer ${key}` }, rx.url);
    assert.equal(created.status, 201);
    rx.state.secret = created.body.data.secret;
    const hook = created.body.data.id as string;
    [{ program_id: programId }] = (await api.service.ctx.db.query<{ program_id: string }>(
      "SELECT program_id FROM webhook_subscriptions WHERE id = $1",
      [hook],
    )) as [{ program_id: string }];

    await newEvent();
    await dispatcher.pass();
    assert.equal(rx.state.requests, 1);

    assert.equal(await api.service.ctx.keys.revoke(info.id), true);
    await newEvent();
    await dispatcher.pass();
    await newEvent();
    await dispatcher.pass();
    assert.equal(rx.state.requests, 1);

    const admin = await bearerFor(api.service, "operator", ["admin"]);
    const listed = await send(api.url, "GET", `${OPERATOR}?createdBy=${info.id}`, { headers: admin });
    assert.equal(listed.status, 200);
    assert.deepEqual(
      listed.body.data.map((w: Record<string, unknown>) => [
        w.id,
        w.createdBy,
        w.status,
        w.disabledReason,
        w.operatorHold,
      ]),
      [[hook, info.id, "disabled", "its API key was revoked", false]],
    );
    const resumed = await send(api.url, "POST", `${OPERATOR}/${hook}/resume`, { headers: admin });
    assertError(resumed, "CONFLICT");
    assert.equal(resumed.body.error.details.reason, "KEY_REVOKED");
    await dispatcher.pass();
    assert.equal(rx.state.requests, 1);
  });

  it("theOperator_holdsAnyTenantsWebhook_theOwnerCannotResumeIt_releaseSendsWhatWaited_deleteRemovesIt", async (t) => {
    const rx = await startReceiver();
    t.after(() => rx.close());
    const owner = await bearerFor(api.service, "tenant-2", ["read"]);
    const created = await subscribe(owner, rx.url);
    assert.equal(created.status, 201);
    rx.state.secret = created.body.data.secret;
    const hook = created.body.data.id as string;
    const admin = await bearerFor(api.service, "operator-2", ["admin"]);

    // Operator routes need the admin scope.
    assertError(await send(api.url, "GET", OPERATOR, { headers: owner }), "FORBIDDEN");
    assertError(await send(api.url, "POST", `${OPERATOR}/${hook}/pause`, { headers: owner }), "FORBIDDEN");

    const held = await send(api.url, "POST", `${OPERATOR}/${hook}/pause`, { headers: admin });
    assert.equal(held.status, 200);
    assert.deepEqual(
      [held.body.data.status, held.body.data.operatorHold, held.body.data.disabledReason],
      ["paused", true, "paused by the operator"],
    );
    const ownerResume = await send(api.url, "POST", `${HOOKS}/${hook}/resume`, { headers: owner });
    assertError(ownerResume, "CONFLICT");
    assert.equal(ownerResume.body.error.details.reason, "OPERATOR_HOLD");

    await newEvent();
    await dispatcher.pass();
    assert.equal(rx.state.requests, 0);

    const released = await send(api.url, "POST", `${OPERATOR}/${hook}/resume`, { headers: admin });
    assert.equal(released.status, 200);
    assert.deepEqual([released.body.data.status, released.body.data.operatorHold], ["active", false]);
    await dispatcher.pass();
    assert.deepEqual(
      rx.state.accepted.map((r) => r.blockNumber),
      [block],
    );

    const deleted = await send(api.url, "DELETE", `${OPERATOR}/${hook}`, { headers: admin });
    assert.equal(deleted.status, 200);
    assert.deepEqual(deleted.body.data, { deleted: true });
    assertError(await send(api.url, "DELETE", `${OPERATOR}/${hook}`, { headers: admin }), "NOT_FOUND");
    assertError(await send(api.url, "GET", `${HOOKS}/${hook}/deliveries`, { headers: owner }), "NOT_FOUND");
    await newEvent();
    await dispatcher.pass();
    assert.equal(rx.state.requests, 1);
  });
});
