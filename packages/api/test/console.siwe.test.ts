import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { Wallet } from "ethers";
import { startApi, type TestApi } from "./helpers/service.js";
import { onboardingBody } from "./helpers/onboarding.js";
import { signIn, withSession } from "./helpers/console.js";
import { proveWallet, proveWith, siweChallenge, siweMessage } from "./helpers/siwe.js";

const DEPLOY = "/api/v1/client-onboarding/deploy";
const victimWallet = new Wallet(Wallet.createRandom().privateKey);
const attackerWallet = new Wallet(Wallet.createRandom().privateKey);

describe("console: the deployer wallet is proven by Sign-In with Ethereum, bound to the session", () => {
  let api: TestApi;
  let victim: string;
  let attacker: string;

  before(async () => {
    // No chain is needed: every check here happens before anything is sent.
    api = await startApi("http://127.0.0.1:9", { WORKER: "off", RPC_TIMEOUT_MS: "500" });
    victim = await signIn(api.url, "victim@brand.example");
    attacker = await signIn(api.url, "attacker@evil.example");
    for (const email of ["victim@brand.example", "attacker@evil.example"]) {
      assert.equal(await api.service.ctx.console.users.approveDeploys(email), true);
    }
  });
  after(() => api?.close());

  const deploy = (session: string, brand: string, deployer: string) =>
    withSession(api.url, session, "POST", DEPLOY, onboardingBody(brand, deployer));
  const assertSiweRefused = (res: { status: number; body: any; text: string }, why: RegExp) => {
    assert.equal(res.status, 403, res.text);
    assert.equal(res.body.error.code, "FORBIDDEN");
    assert.deepEqual(res.body.error.details, { reason: "siwe" });
    assert.match(res.body.error.message, why);
  };

  it("attack_anAttackerSessionNamesAVictimsWalletAsDeployer_isRefused403WalletNotProven", async () => {
    const res = await deploy(attacker, "victimsbrand", victimWallet.address);
    assert.equal(res.status, 403, res.text);
    assert.equal(res.body.error.code, "FORBIDDEN");
    assert.deepEqual(res.body.error.details, { reason: "wallet" });
    assert.match(res.body.error.message, /^wallet not proven: connect the deployer wallet/);
    assert.equal((await api.service.ctx.db.query("SELECT 1 FROM onboarding_tasks")).length, 0);
  });

  it("attack_anAttackerProvesItsOwnWallet_thenNamesTheVictims_isStillRefused", async () => {
    assert.equal((await proveWallet(api.url, attacker, attackerWallet)).status, 200);
    const res = await deploy(attacker, "victimsbrand", victimWallet.address);
    assert.equal(res.status, 403);
    assert.equal(
      res.body.error.message,
      `wallet not proven: this session proved ${attackerWallet.address}, not ${victimWallet.address}`,
    );
    assert.equal((await deploy(attacker, "attackers", attackerWallet.address)).status, 202);
  });

  it("attack_aSiweMessageReplayedFromAnotherSession_isRefused_andTheOwnerStillUsesIt", async () => {
    const message = siweMessage(await siweChallenge(api.url, victim), victimWallet.address);
    const signature = await victimWallet.signMessage(message);
    const replayed = await withSession(api.url, attacker, "POST", "/console/v1/wallet/prove", { message, signature });
    assertSiweRefused(replayed, /nonce was not issued to this session/);
    const me = await withSession(api.url, attacker, "GET", "/console/v1/me");
    assert.equal(me.body.data.provenWallet, attackerWallet.address, "the attacker's session did not gain the wallet");
    // The nonce was the victim's session's: the replay did not spend it.
    const own = await withSession(api.url, victim, "POST", "/console/v1/wallet/prove", { message, signature });
    assert.equal(own.status, 200, own.text);
    assert.deepEqual(own.body.data, { wallet: victimWallet.address });
    assert.equal((await deploy(victim, "victimsbrand", victimWallet.address)).status, 202);
  });

  it("attack_aUsedNonce_isRefused", async () => {
    const message = siweMessage(await siweChallenge(api.url, victim), victimWallet.address);
    assert.equal((await proveWith(api.url, victim, victimWallet, message)).status, 200);
    assertSiweRefused(await proveWith(api.url, victim, victimWallet, message), /was used already/);
  });

  it("attack_aMessageForAnotherSiteOrChainOrSigner_isRefused", async () => {
    const c = () => siweChallenge(api.url, victim);
    const cases: [string, (ch: Awaited<ReturnType<typeof c>>) => string, Wallet, RegExp][] = [
      [
        "domain",
        (ch) => siweMessage(ch, victimWallet.address, { domain: "evil.example" }),
        victimWallet,
        /is for evil\.example/,
      ],
      [
        "uri",
        (ch) => siweMessage(ch, victimWallet.address, { uri: "https://evil.example/" }),
        victimWallet,
        /URI is not on/,
      ],
      ["chain", (ch) => siweMessage(ch, victimWallet.address, { chainId: 5 }), victimWallet, /chain 5 is not one/],
      [
        "no expiry",
        (ch) => siweMessage(ch, victimWallet.address, { expirationTime: undefined }),
        victimWallet,
        /must expire/,
      ],
      [
        "late expiry",
        (ch) =>
          siweMessage(ch, victimWallet.address, { expirationTime: new Date(Date.now() + 86_400_000).toISOString() }),
        victimWallet,
        /must expire no later than its nonce/,
      ],
      ["signer", (ch) => siweMessage(ch, victimWallet.address), attackerWallet, /Signature does not match/],
    ];
    for (const [name, build, signer, why] of cases) {
      const res = await proveWith(api.url, victim, signer, build(await c()));
      assert.equal(res.status, 403, `${name}: ${res.text}`);
      assertSiweRefused(res, why);
    }
  });

  it("anExpiredMessage_isRefused", async () => {
    const ch = await siweChallenge(api.url, victim);
    const past = new Date(Date.now() - 1000).toISOString();
    const res = await proveWith(
      api.url,
      victim,
      victimWallet,
      siweMessage(ch, victimWallet.address, { expirationTime: past }),
    );
    assertSiweRefused(res, /Expired message/);
  });

  it("aNewSession_mustProveItsWalletAgain", async () => {
    const again = await signIn(api.url, "victim@brand.example");
    const me = await withSession(api.url, again, "GET", "/console/v1/me");
    assert.equal(me.body.data.provenWallet, null);
    assert.equal((await deploy(again, "secondbrand", victimWallet.address)).status, 403);
  });

  it("notAnEip4361Message_isRefused403Siwe", async () => {
    const res = await withSession(api.url, victim, "POST", "/console/v1/wallet/prove", {
      message: "hello",
      signature: `0x${"1".repeat(128)}1b`,
    });
    assertSiweRefused(res, /body\.message is not an EIP-4361 message/);
  });

  it("theRoutes_needASession_notAKey", async () => {
    const key = (await api.service.ctx.keys.create("k", ["deploy"])).key;
    const res = await api.call("POST", "/console/v1/wallet/nonce", undefined, { authorization: `Bearer ${key}` });
    assert.equal(res.status, 401);
  });
});
