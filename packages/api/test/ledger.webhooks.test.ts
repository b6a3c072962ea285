import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { isDeepStrictEqual } from "node:util";
import { parseUnits } from "ethers";
import { actors, deployProgram, fundedCampaign, startNode, type DevNode, type ProgramRecord } from "@points/testkit";
import { startApi, type TestApi } from "./helpers/service.js";
import { vaultAs } from "./helpers/ledger.js";
import { startReceiver } from "./helpers/receiver.js";
import { guardedLookup } from "../src/core/webhooks/target.js";
import { WebhookEventData } from "@points/schema";

const sp = (n: number) => parseUnits(String(n), 18).toString();
type Body<T> = { data: T; error: { code: string; message: string } };

// Ledger webhooks (docs/architecture.md#webhooks) against a real receiver that verifies every
// Standard Webhooks signature: confirmation depth 2, order, retries, idempotency by
// webhook-id, filters, pause, redeliver, replay, disable, a reorg's `removed` event, SSRF.
describe("ledger: webhooks", () => {
  let node: DevNode;
  let api: TestApi;
  let program: ProgramRecord;
  let campaignId: string;
  let auth: Record<string, string>;
  let other: Record<string, string>;

  before(async () => {
    node = await startNode();
    let usdc: string;
    ({ record: program, usdc } = await deployProgram(node.provider, "acme"));
    ({ campaignId } = await fundedCampaign(node.provider, program, usdc, "launch", 1000n));
    api = await startApi(node.url, {
      LEDGER: "inline",
      LEDGER_CONFIRMATIONS: "2",
      LEDGER_POLL_MS: "20",
      WEBHOOK_ALLOW_PRIVATE: "1",
      WEBHOOK_POLL_MS: "20",
      WEBHOOK_RETRY_MIN_MS: "20",
      WEBHOOK_RETRY_WINDOW_SECONDS: "3",
    });
    await api.service.ctx.programs.insert(program);
    auth = { authorization: `Bearer ${(await api.service.ctx.keys.create("hooks")).key}` };
    other = { authorization: `Bearer ${(await api.service.ctx.keys.create("other")).key}` };
    await node.mine(2);
    await until(async () => (await ledgerBlock()) >= (await node.provider.getBlockNumber()) - 2);
  });
  after(async () => {
    await api?.close();
    await node?.stop();
  });

  const call = <T>(method: string, path: string, body?: unknown, headers = auth) =>
    api.call(method, path, body, headers) as Promise<{ status: number; body: Body<T> }>;
  const ledgerBlock = async () =>
    Number(
      (
        await api.service.ctx.db.query<{ n: string }>(
          "SELECT synced_to::text AS n FROM ledger_programs WHERE program_id = 'acme'",
        )
      )[0]?.n ?? -1,
    );
  async function until(cond: () => Promise<boolean> | boolean, ms = 20_000) {
    const deadline = Date.now() + ms;
    while (!(await cond())) {
      if (Date.now() > deadline) throw new Error("timed out");
      await sleep(20);
    }
  }
  const mint = async (to: string, n: number, memo: string) =>
    (await (await vaultAs(program, actors(node.provider).brand).mint(campaignId, to, sp(n), memo)).wait())!;
  type Hook = { id: string; secret?: string; status: string; disabledReason: string | null };
  async function subscribe(url: string, extra: Record<string, unknown> = {}) {
    const res = await call<Hook>("POST", "/api/v1/ledger/webhooks", { webhookUrl: url, ...extra });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.data;
  }

  it("delivers_onlyAfterTwoConfirmations_inChainOrder_signed_retriedThroughFailures_onceByWebhookId", async () => {
    const { alice, bob } = actors(node.provider);
    const rx = await startReceiver();
    try {
      const hook = await subscribe(rx.url, { eventTypes: ["PSPMinted"] });
      assert.match(hook.secret!, /^whsec_[A-Za-z0-9+/]{43}=$/);
      rx.state.secret = hook.secret!;
      rx.state.failFirst = 2;
      const r1 = await mint(alice.address, 1, "one");
      const r2 = await mint(bob.address, 2, "two");
      const r3 = await mint(alice.address, 3, "three");
      await sleep(300);
      // Two blocks deep only: the third mint (the head) is not sent until two more blocks come.
      assert.ok(
        rx.state.accepted.every((r) => r.blockNumber <= r3.blockNumber - 2),
        "the head is not confirmed yet",
      );
      await node.mine(2);
      await until(() => rx.state.accepted.length === 3);
      assert.deepEqual(
        rx.state.accepted.map((r) => [r.type, r.event, r.blockNumber, r.data.args.metadata, r.data.txHash]),
        [
          ["ledger.event", "PSPMinted", r1.blockNumber, "one", r1.hash],
          ["ledger.event", "PSPMinted", r2.blockNumber, "two", r2.hash],
          ["ledger.event", "PSPMinted", r3.blockNumber, "three", r3.hash],
        ],
      );
      assert.equal(rx.state.badSignatures, 0);
      // The two refused attempts were the first delivery, sent again with the same webhook-id.
      assert.deepEqual(rx.state.ids.slice(0, 3), [
        rx.state.accepted[0]!.id,
        rx.state.accepted[0]!.id,
        rx.state.accepted[0]!.id,
      ]);
      const log = await call<{ deliveries: any[] }>("GET", `/api/v1/ledger/webhooks/${hook.id}/deliveries`);
      assert.deepEqual(
        log.body.data.deliveries.map((d) => [d.id, d.status, d.attempts, d.lastStatus]),
        [
          [rx.state.accepted[2]!.id, "delivered", 1, 204],
          [rx.state.accepted[1]!.id, "delivered", 1, 204],
          [rx.state.accepted[0]!.id, "delivered", 3, 204],
        ],
      );

      // Redeliver one: the same webhook-id again, which the receiver recognises.
      const again = await call<any>(
        "POST",
        `/api/v1/ledger/webhooks/${hook.id}/deliveries/${rx.state.accepted[1]!.id}/redeliver`,
      );
      assert.equal(again.status, 200);
      await until(() => rx.state.duplicates.length === 1);
      assert.deepEqual(rx.state.duplicates, [rx.state.accepted[1]!.id]);
      // Replay a block range: its deliveries again, same ids, in order.
      const replay = await call<{ queued: number }>("POST", `/api/v1/ledger/webhooks/${hook.id}/replay`, {
        fromBlock: r1.blockNumber,
        toBlock: r2.blockNumber,
      });
      assert.deepEqual([replay.status, replay.body.data], [200, { queued: 2 }]);
      await until(() => rx.state.duplicates.length === 3);
      assert.deepEqual(rx.state.duplicates.slice(1), [rx.state.accepted[0]!.id, rx.state.accepted[1]!.id]);
      assert.equal(rx.state.accepted.length, 3, "nothing new");
      const reversed = await call<{ queued: number }>("POST", `/api/v1/ledger/webhooks/${hook.id}/replay`, {
        fromBlock: r2.blockNumber,
        toBlock: r1.blockNumber,
      });
      assert.deepEqual([reversed.status, reversed.body.data], [200, { queued: 0 }]);
    } finally {
      await rx.close();
    }
  });

  it("filters_holderAndCampaign_only_matchingEvents", async () => {
    const { alice, bob } = actors(node.provider);
    const rx = await startReceiver();
    try {
      const hook = await subscribe(rx.url, { holder: bob.address, campaignId: "launch" });
      rx.state.secret = hook.secret!;
      await mint(alice.address, 1, "not bob");
      const r = await mint(bob.address, 4, "bob");
      await node.mine(2);
      await until(() => rx.state.accepted.length >= 1);
      await sleep(200);
      assert.deepEqual(
        rx.state.accepted.map((x) => [x.event, x.data.args.to, x.data.args.metadata, x.blockNumber]),
        [["PSPMinted", bob.address, "bob", r.blockNumber]],
      );
      // The delivery carries the event as the ledger's routes answer it: the same fields and types.
      const history = await call<{ events: unknown[] }>("GET", `/api/v1/ledger/holders/${bob.address}/history`);
      const { program: _p, chainId: _c, blockTime, ...event } = rx.state.accepted[0]!.data;
      assert.ok(history.body.data.events.some((e) => isDeepStrictEqual(e, { ...event, time: blockTime })));
      assert.equal(WebhookEventData.safeParse(rx.state.accepted[0]!.data).success, true);
    } finally {
      await rx.close();
    }
  });

  it("pause_holdsDeliveries_resume_sendsThem_otherTenants_get404_andSeeNone", async () => {
    const { alice } = actors(node.provider);
    const rx = await startReceiver();
    try {
      const hook = await subscribe(rx.url);
      rx.state.secret = hook.secret!;
      for (const [method, path] of [
        ["POST", `/api/v1/ledger/webhooks/${hook.id}/pause`],
        ["POST", `/api/v1/ledger/webhooks/${hook.id}/resume`],
        ["GET", `/api/v1/ledger/webhooks/${hook.id}/deliveries`],
        ["DELETE", `/api/v1/ledger/webhooks/${hook.id}`],
      ] as const) {
        const res = await call(method, path, undefined, other);
        assert.deepEqual([res.status, res.body.error.code], [404, "NOT_FOUND"], path);
      }
      const theirs = await call<Hook[]>("GET", "/api/v1/ledger/webhooks", undefined, other);
      assert.deepEqual(theirs.body.data, []);
      const mineNow = await call<Hook[]>("GET", "/api/v1/ledger/webhooks");
      assert.ok(mineNow.body.data.some((h) => h.id === hook.id));
      assert.ok(
        mineNow.body.data.every((h) => !("secret" in h)),
        "the secret is shown once",
      );

      const paused = await call<Hook>("POST", `/api/v1/ledger/webhooks/${hook.id}/pause`);
      assert.equal(paused.body.data.status, "paused");
      await mint(alice.address, 1, "while paused");
      await node.mine(2);
      const block = await node.provider.getBlockNumber();
      await until(async () => (await ledgerBlock()) >= block - 2);
      await sleep(200);
      assert.equal(rx.state.requests, 0);
      const resumed = await call<Hook>("POST", `/api/v1/ledger/webhooks/${hook.id}/resume`);
      assert.equal(resumed.body.data.status, "active");
      await until(() => rx.state.accepted.some((x) => x.data.args.metadata === "while paused"));
      const del = await call("DELETE", `/api/v1/ledger/webhooks/${hook.id}`);
      assert.deepEqual([del.status, del.body.data], [200, { deleted: true }]);
    } finally {
      await rx.close();
    }
  });

  it("aReceiverFailingForTheWholeRetryWindow_disablesTheSubscription_withTheReason", async () => {
    const { alice } = actors(node.provider);
    const rx = await startReceiver();
    try {
      const hook = await subscribe(rx.url);
      rx.state.secret = hook.secret!;
      rx.state.failing = true;
      await mint(alice.address, 1, "never taken");
      await node.mine(2);
      let got: Hook | undefined;
      await until(async () => {
        const list = (await call<Hook[]>("GET", "/api/v1/ledger/webhooks")).body.data;
        got = list.find((h) => h.id === hook.id);
        return got?.status === "disabled";
      }, 15_000);
      assert.match(got!.disabledReason!, /failed for 3 s: HTTP 500$/);
      assert.ok(rx.state.requests >= 3, `retried (${rx.state.requests} attempts)`);
      // Resumed with a working receiver: the held delivery goes through.
      rx.state.failing = false;
      await call("POST", `/api/v1/ledger/webhooks/${hook.id}/resume`);
      await until(() => rx.state.accepted.length >= 1);
      await call("DELETE", `/api/v1/ledger/webhooks/${hook.id}`);
    } finally {
      await rx.close();
    }
  });

  it("aReorgDroppingADeliveredEvent_sendsRemoved_thenTheNewHistory", async () => {
    const { alice, bob } = actors(node.provider);
    const rx = await startReceiver();
    try {
      const hook = await subscribe(rx.url, { eventTypes: ["PSPMinted"] });
      rx.state.secret = hook.secret!;
      const snap = await node.snapshot();
      await mint(alice.address, 5, "fork-a");
      await node.mine(2);
      await until(() => rx.state.accepted.length === 1);
      const delivered = rx.state.accepted[0]!;
      assert.equal(delivered.data.args.metadata, "fork-a");
      await node.revert(snap);
      await mint(bob.address, 6, "fork-b");
      await node.mine(4);
      await until(() => rx.state.accepted.length === 3);
      const [, removed, fresh] = rx.state.accepted;
      assert.deepEqual(
        [removed!.type, removed!.data.removedDelivery, removed!.data.args.metadata, removed!.blockNumber],
        ["ledger.event.removed", delivered.id, "fork-a", delivered.blockNumber],
      );
      assert.deepEqual([fresh!.type, fresh!.data.args.metadata], ["ledger.event", "fork-b"]);
      assert.notEqual(fresh!.id, delivered.id);
      await call("DELETE", `/api/v1/ledger/webhooks/${hook.id}`);
    } finally {
      await rx.close();
    }
  });

  it("badInput_andPrivateTargets_are400_withoutTheDevSetting", async () => {
    const strict = await startApi(node.url, { WEBHOOKS: "off" });
    try {
      await strict.service.ctx.programs.insert(program);
      const key = { authorization: `Bearer ${(await strict.service.ctx.keys.create("strict")).key}` };
      for (const url of [
        "http://127.0.0.1:8080/hooks",
        "http://[::1]/hooks",
        "http://10.1.2.3/hooks",
        "http://192.168.1.1/hooks",
        "http://169.254.169.254/latest/meta-data",
        "http://[::ffff:127.0.0.1]/hooks",
        "http://0.0.0.0/hooks",
        "http://localhost:3000/hooks",
        "https://user:pw@hooks.example.com/",
      ]) {
        const res = await strict.call("POST", "/api/v1/ledger/webhooks", { webhookUrl: url }, key);
        assert.equal(res.status, 400, url);
        assert.equal((res.body as Body<never>).error.code, "INVALID_INPUT", url);
      }
      const ok = await strict.call("POST", "/api/v1/ledger/webhooks", { webhookUrl: "https://8.8.8.8/hooks" }, key);
      assert.equal(ok.status, 201);
    } finally {
      await strict.close();
    }
    // At delivery, a name that resolves to a private address is never connected to.
    const err = await new Promise<NodeJS.ErrnoException | null>((resolve) =>
      guardedLookup(false)("localhost", {}, (e) => resolve(e)),
    );
    assert.equal(err?.code, "EADDRNOTPUBLIC");
  });
});
