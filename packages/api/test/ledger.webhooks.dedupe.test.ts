import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { getAddress, id } from "ethers";
import { startApi, type TestApi } from "./helpers/service.js";
import { insertSubscription } from "../src/core/webhooks/store.js";

type Hook = { id: string; eventTypes: string[]; created: boolean; secret: string | null; url: string };
type Answer = { status: number; body: { data: Hook; error: { code: string } } };

const PROGRAM = "0x" + "5f".repeat(20);
const HOLDER = "0x70997970c51812dc3a010c7d01b50e0d17dc79c8";

// Creating a webhook subscription twice (a deploy script run again, a retried request) gives
// back the one subscription of that URL and filter, never a second one; its secret is not shown again.
describe("ledger: webhook subscriptions are unique per owner, URL and filter", () => {
  let api: TestApi;
  let auth: Record<string, string>;
  let other: Record<string, string>;

  before(async () => {
    api = await startApi("http://127.0.0.1:9", { WORKER: "off", WEBHOOKS: "off" });
    // A program the operator registered (no onboarding task): every read key may subscribe to it.
    await api.service.ctx.programs.insert({
      chainId: "31337",
      brand: "acme",
      factory: getAddress(PROGRAM),
      points: getAddress(PROGRAM),
      collateralVault: getAddress(PROGRAM),
      pspVault: getAddress(PROGRAM),
      oracle: null,
      programFactory: null,
      deployTx: "0x" + "ab".repeat(32),
      blockNumber: 1,
      metadata: {},
    });
    auth = { authorization: `Bearer ${(await api.service.ctx.keys.create("hooks")).key}` };
    other = { authorization: `Bearer ${(await api.service.ctx.keys.create("other")).key}` };
  });
  after(() => api?.close());

  const create = (body: Record<string, unknown>, headers = auth) =>
    api.call("POST", "/api/v1/ledger/webhooks", body, headers) as Promise<Answer>;
  const mine = async (headers = auth) =>
    ((await api.call("GET", "/api/v1/ledger/webhooks", undefined, headers)) as { body: { data: Hook[] } }).body.data;
  const clear = async () => {
    for (const h of [...(await mine()), ...(await mine(other))]) {
      await api.service.ctx.db.query("DELETE FROM webhook_subscriptions WHERE id = $1", [h.id]);
    }
  };

  it("theSameUrlAndFilterAgain_answers200WithTheExistingSubscription_andNoSecret", async () => {
    await clear();
    const body = { webhookUrl: "https://8.8.8.8/hooks", eventTypes: ["PSPMinted"], campaignId: "launch" };
    const first = await create(body);
    assert.equal(first.status, 201);
    assert.equal(first.body.data.created, true);
    assert.match(first.body.data.secret!, /^whsec_/);
    const again = await create(body);
    assert.equal(again.status, 200);
    const { created: _c, secret: _s, ...view } = first.body.data;
    assert.deepEqual(again.body.data, { ...view, created: false, secret: null });
    assert.deepEqual(
      (await mine()).map((h) => h.id),
      [first.body.data.id],
    );
  });

  it("eventTypesInAnotherOrder_repeated_orWithStar_andTheCampaignsOtherForm_areTheSameFilter", async () => {
    await clear();
    const url = "https://8.8.8.8/a";
    const first = await create({ webhookUrl: url, eventTypes: ["Transfer", "PSPMinted"], campaignId: "launch" });
    assert.deepEqual([first.status, first.body.data.eventTypes], [201, ["PSPMinted", "Transfer"]]);
    for (const eventTypes of [
      ["PSPMinted", "Transfer"],
      ["PSPMinted", "Transfer", "PSPMinted"],
    ]) {
      // The campaign's label and its id (keccak256 of the label) are the same campaign.
      const again = await create({ webhookUrl: url, eventTypes, campaignId: id("launch") });
      assert.deepEqual([again.status, again.body.data.id, again.body.data.secret], [200, first.body.data.id, null]);
    }
    // Every event: no eventTypes, or a list with `*`; a holder in lowercase or checksummed.
    const all = await create({ webhookUrl: url, holder: HOLDER });
    assert.deepEqual([all.status, all.body.data.eventTypes], [201, ["*"]]);
    const star = await create({ webhookUrl: url, eventTypes: ["PSPMinted", "*"], holder: getAddress(HOLDER) });
    assert.deepEqual([star.status, star.body.data.id], [200, all.body.data.id]);
    assert.equal((await mine()).length, 2);
  });

  it("anotherUrl_anotherFilter_orAnotherOwner_makeANewSubscription_withItsOwnSecret", async () => {
    await clear();
    const base = { webhookUrl: "https://8.8.8.8/b", eventTypes: ["PSPMinted"] };
    const made = [
      await create(base),
      await create({ ...base, webhookUrl: "https://8.8.8.8/c" }),
      await create({ ...base, eventTypes: ["PSPMinted", "Transfer"] }),
      await create({ ...base, campaignId: "launch" }),
      await create({ ...base, holder: HOLDER }),
      await create(base, other),
    ];
    assert.deepEqual(
      made.map((m) => [m.status, m.body.data.created]),
      made.map(() => [201, true]),
    );
    assert.equal(new Set(made.map((m) => m.body.data.id)).size, 6);
    assert.equal(new Set(made.map((m) => m.body.data.secret)).size, 6);
    // The other owner's identical subscription is theirs: each owner sees only their own.
    assert.equal((await mine()).length, 5);
    assert.deepEqual(
      (await mine(other)).map((h) => h.id),
      [made[5]!.body.data.id],
    );
  });

  // The in-memory database runs transactions one at a time; on a shared PostgreSQL the create's
  // per-owner lock is what keeps these to one subscription.
  it("identicalCreatesAtOnce_makeOneSubscription", async () => {
    await clear();
    const body = { webhookUrl: "https://8.8.8.8/race", eventTypes: ["PSPMinted"] };
    const answers = await Promise.all(Array.from({ length: 6 }, () => create(body)));
    assert.deepEqual(answers.map((a) => a.status).sort(), [200, 200, 200, 200, 200, 201]);
    assert.equal(new Set(answers.map((a) => a.body.data.id)).size, 1);
    assert.equal((await mine()).length, 1);
  });

  it("aSubscriptionStoredWithItsEventsInAnotherOrder_isFound_evenAtTheLimit", async () => {
    await clear();
    // Stored before event types were kept sorted: the same filter all the same.
    const old = await insertSubscription(api.service.ctx.db, {
      owner: await ownerOfKey(),
      programId: "acme",
      chainId: "31337",
      url: "https://8.8.8.8/old",
      eventTypes: ["Transfer", "PSPMinted"],
      campaignId: null,
      holder: null,
      fromBlock: 0,
    });
    for (let i = 1; i < 100; i++) {
      assert.equal((await create({ webhookUrl: `https://8.8.8.8/n${i}` })).status, 201);
    }
    const again = await create({ webhookUrl: "https://8.8.8.8/old", eventTypes: ["PSPMinted", "Transfer"] });
    assert.deepEqual([again.status, again.body.data.id, again.body.data.secret], [200, old.id, null]);
    const more = await create({ webhookUrl: "https://8.8.8.8/n100" });
    assert.deepEqual([more.status, more.body.error.code], [409, "CONFLICT"]);
  });

  /** The owner the API records for `auth`'s key (its key id). */
  async function ownerOfKey(): Promise<string> {
    const made = await create({ webhookUrl: "https://8.8.8.8/probe" });
    const [row] = await api.service.ctx.db.query<{ owner: string }>(
      "SELECT owner FROM webhook_subscriptions WHERE id = $1",
      [made.body.data.id],
    );
    await api.service.ctx.db.query("DELETE FROM webhook_subscriptions WHERE id = $1", [made.body.data.id]);
    return row!.owner;
  }
});
