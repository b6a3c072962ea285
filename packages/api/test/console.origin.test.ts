import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { startApi, type TestApi } from "./helpers/service.js";
import { cookieHeader, signIn } from "./helpers/console.js";
import { assertError, send } from "./helpers/http.js";

const RESTART = "/console/v1/wizard/restart";

// A form POST from a foreign Origin to a body-less session route answered
// 200; only SameSite=Strict stopped it. Every state-changing console request checks Origin.
describe("console: state-changing requests from another origin are refused", () => {
  let api: TestApi;
  let cookie: Record<string, string>;
  before(async () => {
    api = await startApi("http://127.0.0.1:9", { RPC_TIMEOUT_MS: "500" });
    cookie = cookieHeader(await signIn(api.url, "ada@acme.example"));
  });
  after(() => api?.close());

  const restart = (headers: Record<string, string>) =>
    send(api.url, "POST", RESTART, {
      body: "x=1",
      headers: { "content-type": "application/x-www-form-urlencoded", ...cookie, ...headers },
    });

  it("attack_aFormPostFromAForeignOrigin_withTheSessionCookie_is403Origin", async () => {
    for (const origin of [
      "https://evil.example",
      "null",
      `${api.url}.evil.example`,
      api.url.replace("http:", "https:"),
    ]) {
      const res = await restart({ origin });
      assertError(res, "FORBIDDEN", origin);
      assert.deepEqual(res.body.error.details, { reason: "origin" }, origin);
      assert.equal(res.body.error.message, `requests that change state must come from ${api.url}, not ${origin}`);
    }
    // A session cookie on a studio route is held to the same rule.
    const studio = await send(api.url, "POST", "/studio/sdk/v1/bulk/psp/mint", {
      body: "{}",
      headers: { "content-type": "application/json", ...cookie, origin: "https://evil.example" },
    });
    assertError(studio, "FORBIDDEN");
    assert.deepEqual(studio.body.error.details, { reason: "origin" });
  });

  it("theConsolesOwnOrigin_andClientsWithoutOrigin_pass", async () => {
    assert.equal((await restart({ origin: api.url })).status, 200);
    assert.equal((await restart({})).status, 200);
  });
});
