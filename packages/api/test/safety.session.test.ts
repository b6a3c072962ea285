import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { startApi, type TestApi } from "./helpers/service.js";
import { assertError, send } from "./helpers/http.js";
import { requestCode, verifyCode } from "./helpers/console.js";
import { startSmtp } from "./helpers/smtp.js";

const CLOSED_PORT = "http://127.0.0.1:9";

describe("safety: the dev mailbox answers only this machine", () => {
  let api: TestApi;
  before(async () => {
    // One reverse proxy in front: every socket is loopback, the client is not.
    api = await startApi(CLOSED_PORT, { TRUST_PROXY: "1" });
  });
  after(async () => {
    await api?.close();
  });

  it("remoteClientBehindALocalReverseProxy_cannotReadTheDevMailbox", async () => {
    assert.equal((await requestCode(api.url, "victim@example.com")).status, 200);
    const remote = { "x-forwarded-for": "203.0.113.9" };
    assertError(await send(api.url, "GET", "/console/v1/dev/mailbox", { headers: remote }), "NOT_FOUND");
    const page = await send(api.url, "GET", "/console/dev/mailbox", { headers: remote });
    assert.equal(page.status, 404);
    assert.ok(!page.text.includes("victim@example.com"));
    const local = await send(api.url, "GET", "/console/v1/dev/mailbox", {
      headers: { "x-forwarded-for": "127.0.0.1" },
    });
    assert.equal(local.status, 200);
    assert.equal(local.body.data[0].email, "victim@example.com");
  });
});

describe("safety: the production session cookie", () => {
  let api: TestApi;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  before(async () => {
    smtp = await startSmtp();
    api = await startApi(CLOSED_PORT, {
      NODE_ENV: "production",
      CONSOLE_SECRET: "s".repeat(32),
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      DEV_MAILBOX: "",
      EXECUTOR_PRIVATE_KEY: `0x${"1".repeat(64)}`,
      EXECUTOR_ALLOW_LOCAL_KEY: "true",
    });
  });
  after(async () => {
    await api?.close();
    await smtp?.close();
  });

  it("sessionCookieOverPlainHttpBehindTlsProxy_isStillSecure_withTheHostPrefix", async () => {
    const email = "prod@example.com";
    assert.equal((await requestCode(api.url, email)).status, 200);
    const res = await verifyCode(api.url, email, /sign-in code: ([0-9]{6})/.exec((await smtp.mailTo(email)).data)![1]);
    assert.equal(res.status, 200, res.text);
    const cookie = res.headers.get("set-cookie")!;
    assert.match(
      cookie,
      /^__Host-points_session=[^;]+; Max-Age=[0-9]+; Path=\/; Expires=[^;]+; HttpOnly; Secure; SameSite=Strict$/,
    );
    const token = /^__Host-points_session=([^;]+)/.exec(cookie)![1];
    const me = await send(api.url, "GET", "/console/v1/me", { headers: { cookie: `__Host-points_session=${token}` } });
    assert.equal(me.status, 200, me.text);
    assert.equal(me.body.data.email, email);
    // The unprefixed name (settable by a sibling subdomain) is not a session.
    const planted = await send(api.url, "GET", "/console/v1/me", { headers: { cookie: `points_session=${token}` } });
    assertError(planted, "UNAUTHORIZED");
  });
});
