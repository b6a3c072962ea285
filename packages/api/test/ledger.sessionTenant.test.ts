import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { actors, deployProgram, fundedCampaign, startNode, type DevNode } from "@points/testkit";
import { createDevProgramAccount } from "../src/index.js";
import { assertError, send } from "./helpers/http.js";
import { cookieHeader, signIn, withSession } from "./helpers/console.js";
import { ledgerApiAtHead } from "./helpers/ledger.js";
import type { TestApi } from "./helpers/service.js";

// A console session reads the ledger of its own account's program only (the console's customer,
// campaign ledger and webhooks pages): another account's program answers as an unknown one.
describe("ledger: a console session reads its own program only", () => {
  let node: DevNode;
  let api: TestApi;
  let owner: string, neighbour: string, stranger: string;
  let campaignId: string;

  before(async () => {
    node = await startNode();
    const acme = await deployProgram(node.provider, "acme");
    const other = await deployProgram(node.provider, "other", {
      release: { programFactory: acme.programFactory, usdc: acme.usdc },
    });
    ({ campaignId } = await fundedCampaign(node.provider, acme.record, acme.usdc, "launch", 10n));
    ({ api } = await ledgerApiAtHead(node.url, node.provider, acme.record, "acme", "tenant", 60_000));
    await api.service.ctx.programs.insert(other.record);
    const wallet = actors(node.provider).brand.address;
    owner = await signIn(api.url, (await createDevProgramAccount(api.service.ctx, "acme", wallet)).email);
    neighbour = await signIn(api.url, (await createDevProgramAccount(api.service.ctx, "other", wallet)).email);
    stranger = await signIn(api.url, "stranger@example.com");
  });
  after(async () => {
    await api?.close();
    await node?.stop();
  });

  const PATHS = () => [
    "/api/v1/ledger/campaigns?program=acme",
    `/api/v1/ledger/holders/${actors(node.provider).brand.address}/history?program=acme`,
    `/api/v1/ledger/campaigns/${campaignId}/ledger?program=acme`,
    "/api/v1/ledger/allowlists?program=acme",
  ];

  it("theOwningAccount_readsItsProgramsLedger_andItsCsv", async () => {
    for (const path of PATHS()) {
      const res = await withSession(api.url, owner, "GET", path);
      assert.equal(res.status, 200, `${path}: ${res.text}`);
      assert.equal(res.body.data.program, "acme");
    }
    const csv = await send(api.url, "GET", `/api/v1/ledger/campaigns/${campaignId}/ledger.csv?program=acme`, {
      headers: cookieHeader(owner),
    });
    assert.equal(csv.status, 200);
    assert.match(csv.text, /CampaignCreated/);
  });

  it("anotherAccountsSession_getsNotFound_onEveryLedgerRouteOfTheProgram", async () => {
    for (const session of [neighbour, stranger]) {
      for (const path of PATHS()) assertError(await withSession(api.url, session, "GET", path), "NOT_FOUND", path);
      const csv = await send(api.url, "GET", `/api/v1/ledger/campaigns/${campaignId}/ledger.csv?program=acme`, {
        headers: cookieHeader(session),
      });
      assertError(csv, "NOT_FOUND", "csv");
    }
  });

  it("anotherAccountsSession_cannotSubscribeAWebhookToTheProgram", async () => {
    const res = await withSession(api.url, neighbour, "POST", "/api/v1/ledger/webhooks", {
      program: "acme",
      webhookUrl: "https://hooks.example/points",
    });
    assertError(res, "NOT_FOUND", "webhook create");
    const own = await withSession(api.url, neighbour, "GET", "/api/v1/ledger/campaigns?program=other");
    assert.equal(own.status, 200, own.text);
    assert.equal(own.body.data.program, "other");
  });
});
