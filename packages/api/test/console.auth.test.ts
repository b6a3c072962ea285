import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { loadConfig } from "../src/index.js";
import { assertError, send } from "./helpers/http.js";
import { startLoggedApi, type LoggedApi } from "./helpers/logs.js";
import { cookieHeader, mailboxCode, requestCode, sessionCookie, signIn, verifyCode } from "./helpers/console.js";

const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");

/** The API with captured JSON log lines; no chain is needed for sign-in. */
const start = (env: Record<string, string> = {}) => startLoggedApi({ DEV_MAILBOX: "1", ...env });

describe("console: sign-in (wizard step 1)", () => {
  let api: LoggedApi;

  before(async () => {
    api = await start();
  });
  after(async () => {
    await api?.service.close();
  });

  describe("the full flow", () => {
    it("signIn_withTheCodeFromTheDevMailbox_setsAnHttpOnlyStrictSessionCookie", async () => {
      const req = await requestCode(api.url, "Ada@Example.com");
      assert.equal(req.status, 200);
      assert.deepEqual(req.body, { success: true, data: { sent: true } });
      const code = await mailboxCode(api.url, "ada@example.com");
      assert.match(code, /^[0-9]{6}$/);
      const res = await verifyCode(api.url, "ADA@example.com", code);
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body, { success: true, data: { email: "ada@example.com" } });
      const cookie = sessionCookie(res);
      assert.ok(cookie);
      assert.match(cookie.value, /^[A-Za-z0-9_-]{43}$/);
      assert.equal(cookie.attrs.httponly, "");
      assert.equal(cookie.attrs.samesite, "Strict");
      assert.equal(cookie.attrs.path, "/");
      assert.equal(cookie.attrs["max-age"], String(168 * 3600), "7 days by default");
      assert.equal("secure" in cookie.attrs, false, "plain http: no Secure flag");
      const me = await send(api.url, "GET", "/console/v1/me", { headers: cookieHeader(cookie.value) });
      assert.equal(me.status, 200);
      assert.equal(me.body.data.email, "ada@example.com");
      assert.equal(me.body.data.wallet, null);
      assert.equal(me.body.data.wizard.step, 1);
    });

    it("logReader_cannotSignInAsAnyone_theCodeNeverReachesTheLog", async () => {
      assert.equal((await requestCode(api.url, "grace@example.com")).status, 200);
      const code = await mailboxCode(api.url, "grace@example.com");
      const lines = api.lines.filter((l) => l.includes("grace@example.com"));
      assert.deepEqual(
        lines.map((l) => JSON.parse(l).msg),
        ["console sign-in code put in the dev mailbox"],
      );
      assert.ok(!api.lines.some((l) => l.includes(code)), "a log line holds the sign-in code");
    });

    it("aCode_worksOnce", async () => {
      await requestCode(api.url, "once@example.com");
      const code = await mailboxCode(api.url, "once@example.com");
      assert.equal((await verifyCode(api.url, "once@example.com", code)).status, 200);
      const again = await verifyCode(api.url, "once@example.com", code);
      assertError(again, "UNAUTHORIZED");
      assert.equal(sessionCookie(again), undefined);
    });

    it("aNewCode_replacesThePreviousOne", async () => {
      await requestCode(api.url, "twice@example.com");
      const first = await mailboxCode(api.url, "twice@example.com");
      await requestCode(api.url, "twice@example.com");
      const second = await mailboxCode(api.url, "twice@example.com");
      if (first !== second) assertError(await verifyCode(api.url, "twice@example.com", first), "UNAUTHORIZED");
      assert.equal((await verifyCode(api.url, "twice@example.com", second)).status, 200);
    });

    it("me_isRefused401_withoutASession_orWithAnUnknownOrMalformedCookie", async () => {
      assertError(await send(api.url, "GET", "/console/v1/me"), "UNAUTHORIZED");
      for (const value of ["A".repeat(43), "not-a-token", ""]) {
        assertError(await send(api.url, "GET", "/console/v1/me", { headers: cookieHeader(value) }), "UNAUTHORIZED");
      }
    });

    it("logout_clearsTheCookie_andEndsTheSessionOnTheServer", async () => {
      const session = await signIn(api.url, "leave@example.com");
      const out = await send(api.url, "POST", "/console/v1/auth/logout", { headers: cookieHeader(session) });
      assert.equal(out.status, 200);
      assert.deepEqual(out.body.data, { signedOut: true });
      const cleared = sessionCookie(out);
      assert.ok(cleared, "logout sends a clearing Set-Cookie");
      assert.equal(cleared.value, "");
      assert.ok(new Date(cleared.attrs.expires).getTime() <= Date.now(), "expired cookie");
      // A copy of the old cookie no longer works: the server forgot the session.
      assertError(await send(api.url, "GET", "/console/v1/me", { headers: cookieHeader(session) }), "UNAUTHORIZED");
    });

    it("logout_withoutASession_answers200", async () => {
      assert.equal((await send(api.url, "POST", "/console/v1/auth/logout")).status, 200);
    });
  });

  describe("wrong, used-up and expired codes", () => {
    it("aWrongCode_is401_withAttemptsLeft_countingDown", async () => {
      await requestCode(api.url, "typo@example.com");
      const code = await mailboxCode(api.url, "typo@example.com");
      const wrong = code === "000000" ? "000001" : "000000";
      for (const left of [4, 3]) {
        const res = await verifyCode(api.url, "typo@example.com", wrong);
        assertError(res, "UNAUTHORIZED");
        assert.deepEqual(res.body.error.details, { attemptsLeft: left });
        assert.equal(sessionCookie(res), undefined);
      }
      // Attempts left: the right code still signs in.
      assert.equal((await verifyCode(api.url, "typo@example.com", code)).status, 200);
    });

    it("theSixthAttempt_is429_evenWithTheRightCode", async () => {
      await requestCode(api.url, "guess@example.com");
      const code = await mailboxCode(api.url, "guess@example.com");
      const wrong = code === "000000" ? "000001" : "000000";
      for (let i = 0; i < 5; i++) {
        const res = await verifyCode(api.url, "guess@example.com", wrong);
        assertError(res, "UNAUTHORIZED", `attempt ${i + 1}`);
        assert.equal(res.body.error.details.attemptsLeft, 4 - i);
      }
      const sixth = await verifyCode(api.url, "guess@example.com", code);
      assertError(sixth, "RATE_LIMITED");
      assert.equal(sessionCookie(sixth), undefined);
      // A new code starts a new budget.
      await requestCode(api.url, "guess@example.com");
      assert.equal(
        (await verifyCode(api.url, "guess@example.com", await mailboxCode(api.url, "guess@example.com"))).status,
        200,
      );
    });

    it("parallelWrongGuesses_neverExceedFiveAttempts", async () => {
      await requestCode(api.url, "burst@example.com");
      const code = await mailboxCode(api.url, "burst@example.com");
      const wrong = code === "000000" ? "000001" : "000000";
      const results = await Promise.all(
        Array.from({ length: 8 }, () => verifyCode(api.url, "burst@example.com", wrong)),
      );
      assert.equal(results.filter((r) => r.status === 401).length, 5);
      assert.equal(results.filter((r) => r.status === 429).length, 3);
    });

    it("aCodeForAnAddressThatRequestedNone_is401", async () => {
      assertError(await verifyCode(api.url, "nobody@example.com", "123456"), "UNAUTHORIZED");
    });

    it("anExpiredCode_is401", async () => {
      const short = await start({ CONSOLE_CODE_TTL_SECONDS: "1", LOG_LEVEL: "silent" });
      try {
        await requestCode(short.url, "late@example.com");
        const code = await mailboxCode(short.url, "late@example.com");
        await new Promise((r) => setTimeout(r, 1200));
        const res = await verifyCode(short.url, "late@example.com", code);
        assertError(res, "UNAUTHORIZED");
        assert.match(res.body.error.message, /expired/);
        assert.equal(sessionCookie(res), undefined);
      } finally {
        await short.service.close();
      }
    });
  });

  describe("no account enumeration, request limits", () => {
    it("requestCode_answersTheSame_forNewAndKnownAddresses", async () => {
      const known = await requestCode(api.url, "ada@example.com");
      const unknown = await requestCode(api.url, "stranger@example.com");
      assert.equal(known.status, unknown.status);
      assert.equal(known.text, unknown.text);
    });

    it("requestCode_isLimitedPerAddress", async () => {
      const limited = await start({ CONSOLE_CODES_PER_EMAIL: "3", LOG_LEVEL: "silent" });
      try {
        for (let i = 0; i < 3; i++) assert.equal((await requestCode(limited.url, "spam@example.com")).status, 200);
        const res = await requestCode(limited.url, "SPAM@example.com");
        assertError(res, "RATE_LIMITED");
        assert.match(res.body.error.message, /address/);
        // Another address from the same IP is still served.
        assert.equal((await requestCode(limited.url, "other@example.com")).status, 200);
      } finally {
        await limited.service.close();
      }
    });

    it("requestCode_isLimitedPerIp", async () => {
      const limited = await start({ CONSOLE_CODES_PER_IP: "4", LOG_LEVEL: "silent" });
      try {
        for (let i = 0; i < 4; i++) assert.equal((await requestCode(limited.url, `u${i}@example.com`)).status, 200);
        const res = await requestCode(limited.url, "u9@example.com");
        assertError(res, "RATE_LIMITED");
        assert.match(res.body.error.message, /network/);
      } finally {
        await limited.service.close();
      }
    });
  });

  describe("secrets at rest and in responses", () => {
    it("theDatabase_holdsNoCodeAndNoSessionIdInClear", async () => {
      const email = "vault@example.com";
      await requestCode(api.url, email);
      const code = await mailboxCode(api.url, email);
      const res = await verifyCode(api.url, email, code);
      const session = sessionCookie(res)!.value;
      const db = api.service.ctx.db;
      const codes = await db.query<Record<string, unknown>>("SELECT * FROM login_codes WHERE email = $1", [email]);
      assert.equal(codes.length, 1);
      assert.match(String(codes[0].code_hash), /^[0-9a-f]{64}$/);
      const sessions = await db.query<Record<string, unknown>>("SELECT * FROM console_sessions WHERE email = $1", [
        email,
      ]);
      assert.equal(sessions.length, 1);
      assert.equal(sessions[0].id_hash, sha256(session));
      for (const table of ["login_codes", "console_sessions", "console_users"]) {
        for (const row of await db.query<Record<string, unknown>>(`SELECT * FROM ${table}`)) {
          for (const [column, value] of Object.entries(row)) {
            const text = JSON.stringify(value) ?? "";
            assert.ok(!text.includes(session), `${table}.${column} holds the session id`);
            if (row.email === email) assert.ok(!text.includes(code), `${table}.${column} holds the code`);
          }
        }
      }
    });

    it("noResponse_carriesTheCodeOrSessionId_exceptTheDevMailboxAndTheCookie", async () => {
      const email = "quiet@example.com";
      const req = await requestCode(api.url, email);
      const code = await mailboxCode(api.url, email);
      const res = await verifyCode(api.url, email, code);
      const session = sessionCookie(res)!.value;
      const me = await send(api.url, "GET", "/console/v1/me", { headers: cookieHeader(session) });
      for (const r of [req, res, me]) {
        assert.ok(!r.text.includes(code), r.text);
        assert.ok(!r.text.includes(session), r.text);
      }
      // The log names neither the code nor the session id or the cookie.
      assert.ok(!api.lines.some((l) => l.includes(session)), "a log line holds the session id");
    });

    it("theDevMailbox_is404_inProduction_andItsPageToo", async () => {
      // Production needs SMTP: a sink that accepts and drops every message.
      const smtp = new SMTPServer({
        authOptional: true,
        disabledCommands: ["STARTTLS", "AUTH"],
        onData: (stream, _session, done) => void stream.on("end", () => done()).resume(),
      });
      await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
      const prod = await start({
        NODE_ENV: "production",
        CONSOLE_SECRET: "s".repeat(32),
        SMTP_URL: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`,
        DEV_MAILBOX: "",
        EXECUTOR_PRIVATE_KEY: `0x${"1".repeat(64)}`,
        EXECUTOR_ALLOW_LOCAL_KEY: "true",
        LOG_LEVEL: "silent",
      });
      try {
        assert.equal((await requestCode(prod.url, "prod@example.com")).status, 200);
        assertError(await send(prod.url, "GET", "/console/v1/dev/mailbox"), "NOT_FOUND");
        assertError(await send(prod.url, "GET", "/console/dev/mailbox"), "NOT_FOUND");
        const rows = await prod.service.ctx.db.query("SELECT * FROM console_dev_mailbox");
        assert.equal(rows.length, 0, "production keeps no code in clear");
      } finally {
        await prod.service.close();
        await new Promise<void>((resolve) => smtp.close(() => resolve()));
      }
    });

    it("production_refusesToStart_withoutConsoleSecret", () => {
      assert.throws(() => loadConfig({ NODE_ENV: "production" }), /CONSOLE_SECRET/);
    });

    it("theDevMailboxPage_listsTheCodes_asHtmlWithoutScripts", async () => {
      await requestCode(api.url, "page@example.com");
      const code = await mailboxCode(api.url, "page@example.com");
      const page = await send(api.url, "GET", "/console/dev/mailbox");
      assert.equal(page.status, 200);
      assert.match(page.headers.get("content-type") ?? "", /^text\/html/);
      assert.ok(page.text.includes("page@example.com"));
      assert.ok(page.text.includes(code));
      assert.doesNotMatch(page.text, /<script/i);
      // No meta refresh (it moves a screen reader's place every few seconds): a reload link instead.
      assert.doesNotMatch(page.text, /http-equiv/i);
      assert.match(page.text, /<a href="\/console\/dev\/mailbox">Reload<\/a>/);
    });
  });
});
