import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { assertError } from "./helpers/http.js";
import { startLoggedApi, type LoggedApi } from "./helpers/logs.js";
import { mailboxCode, requestCode, sessionCookie, verifyCode } from "./helpers/console.js";

/** One proxy in front: X-Forwarded-For names the client, so one test plays several networks. */
const from = (ip: string) => ({ "x-forwarded-for": ip });
const ATTACKER = "203.0.113.9";
const VICTIM = "198.51.100.7";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const wrongFor = (code: string) => (code === "000000" ? "000001" : "000000");

describe("console: sign-in lockout is not a denial of service on the owner", () => {
  let api: LoggedApi;

  before(async () => {
    api = await startLoggedApi({
      DEV_MAILBOX: "1",
      TRUST_PROXY: "1",
      LOG_LEVEL: "silent",
      CONSOLE_VERIFY_FREE_FAILURES: "3",
      CONSOLE_VERIFY_BACKOFF_MAX_SECONDS: "2",
      CONSOLE_VERIFY_FAILURES_PER_IP: "40",
    });
  });
  after(async () => {
    await api?.service.close();
  });

  it("attackerHammeringAVictimsAddress_cannotBurnTheVictimsFreshCode", async () => {
    const email = "victim@example.com";
    assert.equal((await requestCode(api.url, email, from(VICTIM))).status, 200);
    const code = await mailboxCode(api.url, email);
    // The attacker guesses as fast as it can while the victim reads the e-mail.
    const free: number[] = [];
    let thirdSentAt = 0;
    for (let i = 0; i < 3; i++) {
      thirdSentAt = Date.now();
      free.push((await verifyCode(api.url, email, wrongFor(code), from(ATTACKER))).status);
    }
    assert.deepEqual(free, [401, 401, 401], "the free failures are compared");
    // The first backoff is 1 s from the third failure, which the server stamped after `thirdSentAt`:
    // every guess answered before that second is over was refused uncompared (a loaded machine
    // answers fewer of them, never a different answer).
    const during: number[] = [];
    for (;;) {
      const status = (await verifyCode(api.url, email, wrongFor(code), from(ATTACKER))).status;
      if (Date.now() >= thirdSentAt + 1000) break;
      during.push(status);
    }
    assert.ok(during.length > 0, "no guess was answered within the backoff");
    assert.ok(
      during.every((s) => s === 429),
      `past the free failures the attacker waits: ${during}`,
    );
    // The victim's code is alive: at most the bounded backoff, then the right code signs in.
    let res = await verifyCode(api.url, email, code, from(VICTIM));
    if (res.status === 429) {
      assert.equal(res.body.error.details.reason, "backoff");
      assert.ok(res.body.error.details.retryAfterSeconds <= 2, "the wait is bounded by the cap");
      await sleep(res.body.error.details.retryAfterSeconds * 1000 + 100);
      res = await verifyCode(api.url, email, code, from(VICTIM));
    }
    assert.equal(res.status, 200, res.text);
    assert.ok(sessionCookie(res), "the victim got a session");
  });

  it("attackerSpendingEveryAttemptOfItsNetwork_leavesTheOwnersAttemptsWhole", async () => {
    const email = "owner@example.com";
    assert.equal((await requestCode(api.url, email, from(VICTIM))).status, 200);
    const code = await mailboxCode(api.url, email);
    // Patient attacker: waits out every backoff until its network's five attempts are spent.
    const left: number[] = [];
    for (;;) {
      const res = await verifyCode(api.url, email, wrongFor(code), from(ATTACKER));
      if (res.status === 429 && res.body.error.details.reason === "backoff") {
        await sleep(res.body.error.details.retryAfterSeconds * 1000 + 50);
        continue;
      }
      if (res.status === 429) break;
      assertError(res, "UNAUTHORIZED");
      left.push(res.body.error.details.attemptsLeft);
    }
    assert.deepEqual(left, [4, 3, 2, 1, 0]);
    await sleep(2100);
    const res = await verifyCode(api.url, email, code, from(VICTIM));
    assert.equal(res.status, 200, res.text);
  });

  it("bruteForceFromManyNetworks_waitsAnExponentialBackoff_boundedByTheCap", async () => {
    const email = "target@example.com";
    assert.equal((await requestCode(api.url, email, from(VICTIM))).status, 200);
    const code = await mailboxCode(api.url, email);
    const waits: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await verifyCode(api.url, email, wrongFor(code), from(`192.0.2.${i + 1}`));
      if (res.status === 401) continue;
      assertError(res, "RATE_LIMITED");
      waits.push(res.body.error.details.retryAfterSeconds);
      await sleep(res.body.error.details.retryAfterSeconds * 1000 + 50);
      assertError(await verifyCode(api.url, email, wrongFor(code), from(`192.0.2.${i + 101}`)), "UNAUTHORIZED");
    }
    // 3 free failures, then 1 s, 2 s, then the 2 s cap however many more.
    assert.deepEqual(waits, [1, 2, 2]);
    // The owner signs in after at most the cap, and a success clears the backoff.
    await sleep(2100);
    assert.equal((await verifyCode(api.url, email, code, from(VICTIM))).status, 200);
    assert.equal((await requestCode(api.url, email, from(VICTIM))).status, 200);
    const next = await mailboxCode(api.url, email);
    assertError(await verifyCode(api.url, email, wrongFor(next), from(ATTACKER)), "UNAUTHORIZED");
  });

  it("oneNetworkGuessingAcrossManyAddresses_isCutOffPerIp", async () => {
    const ip = "198.18.0.1";
    let cutOff: { status: number; reason?: string } | undefined;
    for (let i = 0; i < 45 && !cutOff; i++) {
      const email = `spray${i}@example.com`;
      await requestCode(api.url, email, from(`198.18.1.${i + 1}`));
      const code = await mailboxCode(api.url, email);
      const res = await verifyCode(api.url, email, wrongFor(code), from(ip));
      if (res.status !== 401) cutOff = { status: res.status, reason: res.body.error.details?.reason };
      if (cutOff) {
        assert.equal(i, 40, "the 41st wrong code from one IP is refused");
        // Refused before it is compared: even the right code from that IP is refused.
        assertError(await verifyCode(api.url, email, code, from(ip)), "RATE_LIMITED");
        // The address's owner, elsewhere, is not affected.
        assert.equal((await verifyCode(api.url, email, code, from(VICTIM))).status, 200);
      }
    }
    assert.deepEqual(cutOff, { status: 429, reason: "ip" });
  });
});
