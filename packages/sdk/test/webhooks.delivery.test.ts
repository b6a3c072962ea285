import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { parseUnits } from "ethers";
import { PSPVault__factory } from "@points/contracts";
import * as pointsApi from "@points/api";
import {
  actors,
  deployProgram,
  fundedCampaign,
  startApi,
  startNode,
  type DevNode,
  type TestApi,
} from "@points/testkit";
import { createClient, verifyWebhook, type PointsClient, type WebhookEvent } from "../src/index.js";

/** A receiver on loopback that keeps each request's raw body and headers, as a backend gets them. */
async function receiver() {
  const got: { body: Buffer; headers: IncomingHttpHeaders }[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      got.push({ body: Buffer.concat(chunks), headers: req.headers });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { got, url: `http://127.0.0.1:${port}/hooks`, close: () => new Promise((r) => server.close(r)) };
}

// A delivery the API's dispatcher signed and sent, verified by verifyWebhook and narrowed by its
// event name; the event is the one the ledger routes answer, block time included.
describe("verifyWebhook: a real delivery of the API", () => {
  let node: DevNode;
  let api: TestApi<pointsApi.Service>;
  let client: PointsClient;
  let rx: Awaited<ReturnType<typeof receiver>>;
  let pspVault: string;
  let campaignId: string;

  before(async () => {
    node = await startNode();
    const { record, usdc } = await deployProgram(node.provider);
    pspVault = record.pspVault;
    ({ campaignId } = await fundedCampaign(node.provider, record, usdc, "launch", 100n));
    api = await startApi(pointsApi, node.url, {
      LEDGER: "inline",
      LEDGER_CONFIRMATIONS: "1",
      LEDGER_POLL_MS: "20",
      WEBHOOKS: "inline",
      WEBHOOK_ALLOW_PRIVATE: "1",
      WEBHOOK_POLL_MS: "20",
    });
    await api.service.ctx.programs.insert(record);
    const { key } = await api.service.ctx.keys.create("hooks", ["build", "read"]);
    client = createClient({ baseUrl: api.url, apiKey: key });
    rx = await receiver();
  });
  after(async () => {
    await rx?.close();
    await api?.close();
    await node?.stop();
  });

  it("aSignedPspMint_verifies_narrowsByEvent_andMatchesTheLedgerRoute", async () => {
    const { brand, alice } = actors(node.provider);
    const hook = await client.ledger.webhooks.subscribe({ webhookUrl: rx.url, eventTypes: ["PSPMinted"] });
    assert.ok(hook.created);
    const minted = await (
      await PSPVault__factory.connect(pspVault, brand).mint(campaignId, alice.address, parseUnits("3", 18), "hi")
    ).wait();
    await node.mine(2);
    for (let i = 0; i < 500 && rx.got.length === 0; i++) await sleep(20);
    assert.equal(rx.got.length, 1);

    const event: WebhookEvent = await verifyWebhook(rx.got[0]!.body, rx.got[0]!.headers, hook.secret);
    assert.equal(event.id, rx.got[0]!.headers["webhook-id"]);
    assert.equal(event.type, "ledger.event");
    assert.ok(event.data.event === "PSPMinted");
    // Narrowed: args are a mint's, typed (a wrong name would not compile).
    const { to, amount, metadata, minter } = event.data.args;
    assert.deepEqual(
      [to, amount, metadata, minter],
      [alice.address, parseUnits("3", 18).toString(), "hi", brand.address],
    );
    assert.equal(event.data.txHash, minted!.hash);
    // The same event from the ledger's route: the same fields, block time as the same ISO text.
    const history = await client.ledger.holderHistory(alice.address);
    const same = history.events.find((e) => e.txHash === minted!.hash && e.event === "PSPMinted");
    const { program: _p, chainId: _c, blockTime, ...fields } = event.data;
    assert.deepEqual(same, { ...fields, time: blockTime });
    assert.match(blockTime, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z$/);

    // A tampered body is refused.
    const tampered = rx.got[0]!.body.toString().replace('"hi"', '"ho"');
    await assert.rejects(verifyWebhook(tampered, rx.got[0]!.headers, hook.secret), /webhook refused/);
  });

  it("subscribingAgain_withTheSameUrlAndFilter_givesTheSameSubscription_withoutTheSecret", async () => {
    const first = await client.ledger.webhooks.subscribe({
      webhookUrl: rx.url,
      eventTypes: ["PSPSettled", "PSPMinted"],
    });
    const again = await client.ledger.webhooks.subscribe({
      webhookUrl: rx.url,
      eventTypes: ["PSPMinted", "PSPSettled"],
    });
    assert.deepEqual([first.created, again.created, again.id, again.secret], [true, false, first.id, null]);
    assert.deepEqual(again.eventTypes, ["PSPMinted", "PSPSettled"]);
  });
});
