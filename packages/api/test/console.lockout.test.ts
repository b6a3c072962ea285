import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { assertError } from "./helpers/http.js";
import { startLoggedApi, type LoggedApi } from "./helpers/logs.js";
import { mailboxCode, requestCode, sessionCookie, verifyCode } from "./helpers/console.js";

/** One proxy in front: X-Forwarded-For names the client, so one test plays several networks. */
const from = (ip: string) => ({ "x-forwarded-for": ip });
const VICTIM = "198.51.100.7";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const wrongFor = (code: string) => (code === "000000" ? "000001" : "000000");
const wrongGuess = "000000";

// The policy: packages/api/README.md#sign-in-budgets.
describe("console: sign-in budgets slow the attacker, never the owner", () => {
  let api: LoggedApi;

  before(async () => {
    api = await startLoggedApi({
      DEV_MAILBOX: "1",
      TRUST_PROXY: "1",
      LOG_LEVEL: "silent",
      CONSOLE_CODES_PER_IP: "60",
      CONSOLE_VERIFY_FREE_FAILURES: "3",
      CONSOLE_VERIFY_BACKOFF_MAX_SECONDS: "2",
      CONSOLE_VERIFY_FAILURES_PER_IP: "40",
    });
  });
  after(async () => {
    await api?.service.close();
  });

  it("attack_everyBudgetExhaustedFromOtherNetworks_ownerStillGetsACodeAndSignsInAtOnce", async () => {
    const email = "victim@example.com";
    for (const net of ["203.0.113.1", "203.0.113.2", "203.0.113.3"]) {
      // Five codes per address and network in 15 minutes: the sixth is refused.
      for (let i = 0; i < 5; i++) assert.equal((await requestCode(api.url, email, from(net))).status, 200);
      assertError(await requestCode(api.url, email, from(net)), "RATE_LIMITED");
      // Then every attempt on that network's code, waiting out each backoff.
      for (;;) {
        const res = await verifyCode(api.url, email, wrongGuess, from(net));
        if (res.status === 401) continue;
        assertError(res, "RATE_LIMITED");
        if (res.body.error.details.reason !== "backoff") break;
        await sleep(res.body.error.details.retryAfterSeconds * 1000 + 50);
      }
    }
    // The owner asks from its own network: a code, and the right one signs in with no wait.
    assert.equal((await requestCode(api.url, email, from(VICTIM))).status, 200);
    const code = await mailboxCode(api.url, email);
    const res = await verifyCode(api.url, email, code, from(VICTIM));
    assert.equal(res.status, 200, res.text);
    assert.ok(sessionCookie(res), "the owner got a session");
  });

  it("attack_guessesFromAnotherNetwork_neverReachTheOwnersCode", async () => {
    const email = "owner@example.com";
    assert.equal((await requestCode(api.url, email, from(VICTIM))).status, 200);
    const code = await mailboxCode(api.url, email);
    for (let i = 0; i < 10; i++) {
      const res = await verifyCode(api.url, email, wrongFor(code), from("203.0.113.9"));
      assertError(res, "UNAUTHORIZED");
      assert.equal(res.body.error.message, "no code is pending for this address: request a new one");
    }
    // Not even the right code works from another network: a code signs in where it was asked for.
    assertError(await verifyCode(api.url, email, code, from("203.0.113.9")), "UNAUTHORIZED");
    assert.equal((await verifyCode(api.url, email, code, from(VICTIM))).status, 200);
  });

  it("attack_oneNetworkSpendsItsOwnAttempts_andTheOwnersStayWhole", async () => {
    const email = "attempts@example.com";
    const attacker = "203.0.113.20";
    assert.equal((await requestCode(api.url, email, from(attacker))).status, 200);
    const left: number[] = [];
    for (;;) {
      const res = await verifyCode(api.url, email, wrongGuess, from(attacker));
      if (res.status === 429 && res.body.error.details.reason === "backoff") {
        await sleep(res.body.error.details.retryAfterSeconds * 1000 + 50);
        continue;
      }
      if (res.status === 429) break;
      assertError(res, "UNAUTHORIZED");
      left.push(res.body.error.details.attemptsLeft);
    }
    assert.deepEqual(left, [4, 3, 2, 1, 0]);
    assert.equal((await requestCode(api.url, email, from(VICTIM))).status, 200);
    const code = await mailboxCode(api.url, email);
    assert.equal((await verifyCode(api.url, email, code, from(VICTIM))).status, 200);
  });

  it("bruteForceFromManyNetworks_waitsAnExponentialBackoff_boundedByTheCap_theOwnerDoesNot", async () => {
    const email = "target@example.com";
    const nets = ["192.0.2.1", "192.0.2.2", "192.0.2.3"];
    for (const net of nets) {
      assert.equal((await requestCode(api.url, email, from(net))).status, 200);
      assertError(await verifyCode(api.url, email, wrongGuess, from(net)), "UNAUTHORIZED");
    }
    // 3 free failures for the address, then each network that guessed wrong waits 1 s, 2 s, then the 2 s cap.
    const waits: number[] = [];
    for (const net of [...nets, nets[0]]) {
      const res = await verifyCode(api.url, email, wrongGuess, from(net));
      assertError(res, "RATE_LIMITED");
      assert.equal(res.body.error.details.reason, "backoff");
      waits.push(res.body.error.details.retryAfterSeconds);
      await sleep(res.body.error.details.retryAfterSeconds * 1000 + 50);
      assertError(await verifyCode(api.url, email, wrongGuess, from(net)), "UNAUTHORIZED");
    }
    assert.deepEqual(waits, [1, 2, 2, 2]);
    // The owner, who guessed nothing wrong, waits for nothing; a success clears the backoff.
    assert.equal((await requestCode(api.url, email, from(VICTIM))).status, 200);
    const code = await mailboxCode(api.url, email);
    assert.equal((await verifyCode(api.url, email, code, from(VICTIM))).status, 200);
    assertError(await verifyCode(api.url, email, wrongGuess, from(nets[1])), "UNAUTHORIZED");
  });

  it("oneNetworkGuessingAcrossManyAddresses_isCutOffPerIp", async () => {
    const ip = "198.18.0.1";
    let cutOff: { status: number; reason?: string } | undefined;
    for (let i = 0; i < 45 && !cutOff; i++) {
      const email = `spray${i}@example.com`;
      assert.equal((await requestCode(api.url, email, from(ip))).status, 200);
      const code = await mailboxCode(api.url, email);
      const res = await verifyCode(api.url, email, wrongFor(code), from(ip));
      if (res.status !== 401) cutOff = { status: res.status, reason: res.body.error.details?.reason };
      if (cutOff) {
        assert.equal(i, 40, "the 41st wrong code from one IP is refused");
        // Refused before it is compared: even the right code from that IP is refused.
        assertError(await verifyCode(api.url, email, code, from(ip)), "RATE_LIMITED");
        // The address's owner, elsewhere, is not affected.
        assert.equal((await requestCode(api.url, email, from(VICTIM))).status, 200);
        const own = await mailboxCode(api.url, email);
        assert.equal((await verifyCode(api.url, email, own, from(VICTIM))).status, 200);
      }
    }
    assert.deepEqual(cutOff, { status: 429, reason: "ip" });
  });
});
