import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { startApi, type TestApi } from "./helpers/service.js";
import { assertError, send } from "./helpers/http.js";

const ORIGIN = { origin: "https://elsewhere.example", "access-control-request-method": "PUT" };
const accessControl = (h: Headers) => [...h.keys()].filter((k) => k.startsWith("access-control-"));

describe("HTTP semantics integrators rely on", () => {
  let api: TestApi;
  let key: string;

  before(async () => {
    // Nothing here reaches a chain: the RPC is a closed port.
    api = await startApi("http://127.0.0.1:9", { WORKER: "off" });
    key = (await api.service.ctx.keys.create("semantics", ["build", "read", "deploy"])).key;
  });
  after(() => api?.close());

  it("knownPath_unservedMethod_is405_withAllow_inTheEnvelope_notA404", async () => {
    const res = await send(api.url, "GET", "/console/v1/wizard");
    assertError(res, "METHOD_NOT_ALLOWED");
    assert.equal(res.headers.get("allow"), "OPTIONS, PUT");
    assert.equal(res.body.error.message, "GET is not served on /console/v1/wizard; allowed: OPTIONS, PUT");
  });

  it("options_onConsoleRoutes_answersTheRealMethods_inTheEnvelope", async () => {
    for (const [path, allow] of [
      ["/console/v1/wizard", ["OPTIONS", "PUT"]],
      ["/console/v1/auth/verify", ["OPTIONS", "POST"]],
      ["/console/v1/me", ["GET", "HEAD", "OPTIONS"]],
    ] as const) {
      const res = await send(api.url, "OPTIONS", path);
      assert.equal(res.status, 200, path);
      assert.match(res.headers.get("content-type") ?? "", /^application\/json/, path);
      assert.equal(res.headers.get("allow"), allow.join(", "), path);
      assert.deepEqual(res.body, { success: true, data: { allow } }, path);
    }
  });

  it("aRequestFromAnotherOrigin_getsNoAccessControlHeaders_noCorsPolicy", async () => {
    const preflight = await send(api.url, "OPTIONS", "/console/v1/wizard", { headers: ORIGIN });
    assert.equal(preflight.status, 200);
    assert.deepEqual(accessControl(preflight.headers), []);
    const read = await send(api.url, "GET", `/api/v1/contracts/factories`, { headers: ORIGIN });
    assert.equal(read.status, 200);
    assert.equal(read.headers.get("access-control-allow-origin"), null);
    assert.equal(read.headers.get("access-control-allow-credentials"), null);
    assert.deepEqual(accessControl(read.headers), []);
  });

  it("unknownPath_staysA404_withoutAllow", async () => {
    const res = await send(api.url, "PUT", "/api/v1/nope");
    assertError(res, "NOT_FOUND");
    assert.equal(res.headers.get("allow"), null);
  });

  describe("WWW-Authenticate on 401", () => {
    const keyRoute = "/api/v1/client-onboarding/tasks";

    it("keyRoute_withoutAKey_challengesBearerRealmPoints", async () => {
      const res = await send(api.url, "GET", keyRoute);
      assertError(res, "UNAUTHORIZED");
      assert.equal(res.headers.get("www-authenticate"), 'Bearer realm="points"');
    });

    it("keyRoute_withAnUnknownRevokedOrMalformedKey_addsInvalidToken_andNeverEchoesTheKey", async () => {
      const revoked = await api.service.ctx.keys.create("to revoke");
      await api.service.ctx.keys.revoke(revoked.info.id);
      for (const header of ["Bearer pk_unknown_1234567890", `Bearer ${revoked.key}`, "Basic dXNlcjpwYXNz", "Bearer"]) {
        const res = await send(api.url, "GET", keyRoute, { headers: { authorization: header } });
        assertError(res, "UNAUTHORIZED", header);
        const challenge = res.headers.get("www-authenticate");
        assert.equal(challenge, 'Bearer realm="points", error="invalid_token"', header);
        const secret = header.split(" ")[1];
        if (secret) assert.ok(!res.text.includes(secret) && !challenge!.includes(secret), header);
      }
    });

    it("sessionOnlyRoute_usesAPrivateScheme_neverBasic", async () => {
      const res = await send(api.url, "GET", "/console/v1/me");
      assertError(res, "UNAUTHORIZED");
      assert.equal(res.headers.get("www-authenticate"), 'PointsSession realm="points"');
      const withKey = await send(api.url, "GET", "/console/v1/me", { headers: { authorization: `Bearer ${key}` } });
      assertError(withKey, "UNAUTHORIZED");
      assert.doesNotMatch(withKey.headers.get("www-authenticate") ?? "", /basic/i);
    });

    it("aWrongSignInCode_is401_withThePrivateScheme", async () => {
      const res = await send(api.url, "POST", "/console/v1/auth/verify", {
        body: JSON.stringify({ email: "nobody@example.com", code: "000000" }),
        headers: { "content-type": "application/json" },
      });
      assertError(res, "UNAUTHORIZED");
      assert.equal(res.headers.get("www-authenticate"), 'PointsSession realm="points"');
    });
  });

  it("aKeyRouteWithAValidKey_answersWithoutAChallenge", async () => {
    const res = await send(api.url, "GET", `/api/v1/client-onboarding/tasks`, {
      headers: { authorization: `Bearer ${key}` },
    });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("www-authenticate"), null);
  });
});
