import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { keccak256, parseUnits, toUtf8Bytes } from "ethers";
import { freePort } from "@points/testkit";
import { createClient, PointsApiError } from "../src/index.js";
import { type Live, liveWithCampaign } from "./helpers/live.js";

/** Awaits `p`, expecting a PointsApiError, and returns it. */
async function apiError(p: Promise<unknown>): Promise<PointsApiError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  assert.ok(e instanceof PointsApiError, `expected a PointsApiError, got ${String(e)}`);
  return e;
}

describe("errors: surface as PointsApiError with the API's code, message, details and status", () => {
  let live: Live;
  before(async () => {
    live = await liveWithCampaign(parseUnits("100", 6), "c1", parseUnits("10", 18));
  });
  after(() => live?.stop());

  it("missingRole_is403MissingRole_withContractRoleAndAccount_exactlyAsTheApiSentThem", async () => {
    const { alice, outsider } = live.actors;
    const e = await apiError(live.client.factory.addToMintWhitelist(alice.address, { from: outsider.address }));
    assert.equal(e.code, "MISSING_ROLE");
    assert.equal(e.status, 403);
    const { contract, role, account } = e.details as Record<string, unknown>;
    assert.deepEqual(
      { contract, role, account },
      { contract: "factory", role: "MANAGER_ROLE", account: outsider.address },
    );
    const raw = await live.api.call(
      "POST",
      "/studio/sdk/v1/tx/whitelist/mint/add",
      { account: alice.address, from: outsider.address },
      live.auth,
    );
    assert.deepEqual({ code: e.code, message: e.message, details: e.details }, raw.body.error);
  });

  it("pspMint_byAnUnconfiguredMinter_is422WouldRevert_MinterNotAuthorized", async () => {
    const { alice, outsider } = live.actors;
    const e = await apiError(live.client.vault.mint("c1", alice.address, "1", "", { from: outsider.address }));
    assert.equal(e.code, "WOULD_REVERT");
    assert.equal(e.status, 422);
    const details = e.details as { contract: string; name: string; args: Record<string, string> };
    assert.equal(details.contract, "pspVault");
    assert.equal(details.name, "MinterNotAuthorized");
    assert.deepEqual(details.args, { campaignId: keccak256(toUtf8Bytes("c1")), minter: outsider.address });
    assert.equal(e.prerequisite, undefined);
  });

  it("keyRoute_withoutApiKey_is401Unauthorized", async () => {
    const { brand, alice } = live.actors;
    const anonymous = createClient({ baseUrl: live.api.url });
    const e = await apiError(anonymous.factory.addToMintWhitelist(alice.address, { from: brand.address }));
    assert.equal(e.code, "UNAUTHORIZED");
    assert.equal(e.status, 401);
  });

  it("keyRoute_withARevokedOrUnknownKey_is401Unauthorized", async () => {
    const wrong = createClient({ baseUrl: live.api.url, apiKey: "not-a-key" });
    const e = await apiError(wrong.vault.getCampaign("c1"));
    assert.equal(e.code, "UNAUTHORIZED");
    assert.equal(e.status, 401);
  });

  it("openRoute_withoutApiKey_answers", async () => {
    const anonymous = createClient({ baseUrl: live.api.url });
    assert.equal((await anonymous.read.factoryState()).factory, live.program.factory);
  });

  it("malformedInput_is400InvalidInput_namingTheField", async () => {
    const e = await apiError(live.client.read.balance("0x1234"));
    assert.equal(e.code, "INVALID_INPUT");
    assert.equal(e.status, 400);
    const { issues } = e.details as { issues: { field: string }[] };
    assert.deepEqual(
      issues.map((i) => i.field),
      ["params.address"],
    );
  });

  it("unknownProgram_is404NotFound", async () => {
    const e = await apiError(live.client.read.factory("nosuchbrand"));
    assert.equal(e.code, "NOT_FOUND");
    assert.equal(e.status, 404);
  });

  it("pathParameters_areEncoded_soALabelWithSlashesStaysOneParameter", async () => {
    const e = await apiError(live.client.vault.getCampaign("a/b c?d"));
    // The API received the whole label (hashed, not found on chain), not another path.
    assert.equal(e.code, "NOT_FOUND");
    assert.equal((e.details as { name: string }).name, "CampaignNotFound");
  });

  it("unknownCampaign_isNotFoundCampaignNotFound_onReadsAndBuildsAlike", async () => {
    const { brand, alice } = live.actors;
    // Started one at a time: a call started early that fails before it is awaited is an unhandled rejection.
    const calls = [
      () => live.client.vault.balanceOf("no-such", alice.address),
      () => live.client.vault.getMinterConfig("no-such", alice.address),
      () => live.client.vault.mint("no-such", alice.address, 1n, "", { from: brand.address }),
    ];
    for (const call of calls) {
      const e = await apiError(call());
      assert.deepEqual(
        [e.code, e.status, (e.details as { name: string; args: object }).name],
        ["NOT_FOUND", 404, "CampaignNotFound"],
      );
      assert.deepEqual((e.details as { args: object }).args, { campaignId: keccak256(toUtf8Bytes("no-such")) });
    }
  });

  it("unreachableApi_isNetwork_withoutStatus_andTheCause", async () => {
    const port = await freePort(); // nothing listens there
    const offline = createClient({ baseUrl: `http://127.0.0.1:${port}` });
    const e = await apiError(offline.read.factoryState());
    assert.equal(e.code, "NETWORK");
    assert.equal(e.status, undefined);
    assert.match(e.message, /could not reach the API/);
    assert.ok(e.cause instanceof Error);
  });

  it("answerWithoutTheEnvelope_isNetwork_withTheHttpStatus", async () => {
    const proxy: typeof fetch = async () =>
      new Response("<html>502 Bad Gateway</html>", { status: 502, headers: { "content-type": "text/html" } });
    const behindBrokenProxy = createClient({ baseUrl: live.api.url, fetch: proxy });
    const e = await apiError(behindBrokenProxy.read.factoryState());
    assert.equal(e.code, "NETWORK");
    assert.equal(e.status, 502);
  });
});
