import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { Request, Response } from "express";
import { routes, type RouteDef } from "@points/schema";
import { actors, deployProgram, type DevNode, signAndSend, startNode } from "@points/testkit";
import { startApi, type TestApi } from "./helpers/service.js";
import { assertError, send } from "./helpers/http.js";
import { cookieHeader, signIn } from "./helpers/console.js";
import { authenticate, type Identity } from "../src/server/http/auth.js";
import { ownerOf } from "../src/core/auth/caller.js";
import type { Ctx } from "../src/core/context.js";

/** authenticate() over a fake response carrying `identity`. */
const whoIs = (identity: Identity, route: RouteDef, requireApiKey = false) =>
  authenticate({} as Request, { locals: { identity } } as unknown as Response, route, {
    config: { requireApiKey },
  } as Ctx);

describe("console: a session works wherever an API key does", () => {
  describe("who the caller is (input.caller)", () => {
    const none = { kind: "none" } as const;
    const session = { email: "ada@example.com", token: "t" };

    it("aKey_isTheCaller_evenWithASessionCookieAlongside", () => {
      const caller = whoIs(
        { key: { kind: "key", keyId: "k1", scopes: ["build", "read"] }, session },
        routes.whitelistStatus,
      );
      assert.deepEqual(caller, { kind: "key", id: "k1" });
      assert.equal(ownerOf(caller), "k1");
    });

    it("aSession_isTheCaller_onKeyRoutes_withOwnerSessionEmail", () => {
      const caller = whoIs({ key: none, session }, routes.whitelistStatus);
      assert.deepEqual(caller, { kind: "session", email: "ada@example.com" });
      assert.equal(ownerOf(caller), "session:ada@example.com");
    });

    it("nobody_isAnonymous_onOpenRoutes_andRefused_onKeyAndSessionRoutes", () => {
      assert.deepEqual(whoIs({ key: none }, routes.listFactories), { kind: "anonymous" });
      assert.equal(ownerOf({ kind: "anonymous" }), undefined);
      assert.throws(() => whoIs({ key: none }, routes.whitelistStatus), { code: "UNAUTHORIZED" });
      assert.throws(() => whoIs({ key: none }, routes.consoleMe), { code: "UNAUTHORIZED" });
    });

    it("requireApiKey_acceptsAnApprovedAccountsSession_refusesAnUnapprovedOne_andLeavesPublicRoutesOpen", () => {
      assert.deepEqual(whoIs({ key: none, session: { ...session, approved: true } }, routes.listFactories, true), {
        kind: "session",
        email: "ada@example.com",
      });
      // Anyone can open a session with a fresh address: with REQUIRE_API_KEY it is not a key until approved.
      assert.throws(() => whoIs({ key: none, session }, routes.listFactories, true), {
        code: "FORBIDDEN",
        details: { reason: "approval" },
      });
      assert.throws(() => whoIs({ key: none }, routes.listFactories, true), { code: "UNAUTHORIZED" });
      assert.deepEqual(whoIs({ key: none }, routes.consoleRequestCode, true), { kind: "anonymous" });
    });

    it("aWrongKey_isRefused_evenWithAValidSession", () => {
      assert.throws(() => whoIs({ key: { kind: "unknown" }, session }, routes.consoleMe), { code: "UNAUTHORIZED" });
      assert.throws(() => whoIs({ key: { kind: "malformed" }, session }, routes.whitelistStatus), {
        code: "UNAUTHORIZED",
      });
    });
  });

  describe("over HTTP against a local chain", () => {
    let node: DevNode;
    let api: TestApi;
    let session: string;

    before(async () => {
      node = await startNode();
      const { record } = await deployProgram(node.provider);
      api = await startApi(node.url);
      await api.service.ctx.programs.insert(record);
      session = await signIn(api.url, "brand@example.com");
    });
    after(async () => {
      await api?.close();
      await node?.stop();
    });

    it("whitelistStatus_aKeyRoute_answers200_withTheSessionCookieAndNoKey", async () => {
      const { alice } = actors(node.provider);
      const path = `/studio/sdk/v1/factory/whitelist/${alice.address}`;
      assertError(await send(api.url, "GET", path), "UNAUTHORIZED");
      const res = await send(api.url, "GET", path, { headers: cookieHeader(session) });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body.data, { address: alice.address, mint: false, redeem: false, transfer: false });
    });

    it("aKeyBuildRoute_withTheSession_buildsATransactionTheWalletSigns", async () => {
      const { brand, alice } = actors(node.provider);
      const res = await send(api.url, "POST", "/studio/sdk/v1/tx/whitelist/mint/add", {
        body: JSON.stringify({ account: alice.address, from: brand.address }),
        headers: { ...cookieHeader(session), "content-type": "application/json" },
      });
      assert.equal(res.status, 200, res.text);
      await signAndSend(node.provider, brand, res.body.data);
      const status = await send(api.url, "GET", `/studio/sdk/v1/factory/whitelist/${alice.address}`, {
        headers: cookieHeader(session),
      });
      assert.equal(status.body.data.mint, true);
    });

    it("afterLogout_theSameCookie_isRefusedOnKeyRoutes", async () => {
      const other = await signIn(api.url, "leaver@example.com");
      const { alice } = actors(node.provider);
      const path = `/studio/sdk/v1/factory/whitelist/${alice.address}`;
      assert.equal((await send(api.url, "GET", path, { headers: cookieHeader(other) })).status, 200);
      await send(api.url, "POST", "/console/v1/auth/logout", { headers: cookieHeader(other) });
      assertError(await send(api.url, "GET", path, { headers: cookieHeader(other) }), "UNAUTHORIZED");
    });
  });
});
