import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { assertError, send } from "./helpers/http.js";
import { startApi, type TestApi } from "./helpers/service.js";
import { signIn, withSession } from "./helpers/console.js";
import { programRecord } from "./helpers/records.js";

const CLOSED_PORT = "http://127.0.0.1:9";
const WALLET = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const CHAINS = [
  { chainId: 31337, name: "Hardhat", rpcUrl: CLOSED_PORT },
  { chainId: 1, name: "Ethereum", rpcUrl: CLOSED_PORT, testnet: false, explorerUrl: "https://etherscan.io" },
];

describe("console: wizard progress is stored on the server", () => {
  let api: TestApi;

  before(async () => {
    // No worker: the tasks here are rows the test writes and moves on its own; a worker would
    // claim a queued one, fail it on the closed RPC, and overwrite the test's "succeeded".
    api = await startApi(CLOSED_PORT, {
      CHAINS: JSON.stringify(CHAINS),
      EXECUTOR_PRIVATE_KEY: `0x${"1".repeat(64)}`,
      WORKER: "off",
    });
  });
  after(async () => {
    await api?.close();
  });

  const me = async (session: string) => (await withSession(api.url, session, "GET", "/console/v1/me")).body.data;
  const save = (session: string, body: unknown) => withSession(api.url, session, "PUT", "/console/v1/wizard", body);
  /** An onboarding task row as the deploy route writes it, owned by `email`'s console account. */
  const task = async (email: string, brand: string, status: "queued" | "succeeded", programId: string | null) => {
    const id = randomUUID();
    await api.service.ctx.db.query(
      `INSERT INTO onboarding_tasks (id, owner, request_hash, request, brand, chain_id, status, program_id)
       VALUES ($1, $2, 'h', '{}', $3, '31337', $4, $5)`,
      [id, `session:${email}`, brand, status, programId],
    );
    return id;
  };

  it("saveAndResume_acrossSignOutAndSignIn_keepsStepAndFields", async () => {
    const email = "resume@example.com";
    let session = await signIn(api.url, email);
    const organization = { name: "Acme", website: "https://acme.example", description: "Loyalty for Acme" };
    const saved = await save(session, { step: 4, wallet: WALLET.toLowerCase(), organization, chainId: 31337 });
    assert.equal(saved.status, 200, saved.text);
    assert.deepEqual(saved.body.data, {
      step: 4,
      wallet: WALLET,
      organization,
      chainId: 31337,
      token: null,
      brand: null,
      deskPolicy: null,
      taskId: null,
      programId: null,
    });
    // A partial save keeps the rest.
    const token = { name: "Acme Points", symbol: "ACME" };
    assert.equal((await save(session, { step: 5, token, brand: "acme" })).status, 200);
    await withSession(api.url, session, "POST", "/console/v1/auth/logout");
    session = await signIn(api.url, email);
    const back = await me(session);
    assert.equal(back.email, email);
    assert.equal(back.wallet, WALLET, "the account remembers the wallet");
    assert.deepEqual(back.wizard, { ...saved.body.data, step: 5, token, brand: "acme" });
  });

  it("deskPolicy_isSavedAndCleared_andAnUnknownPolicyIsRefused", async () => {
    const s = await signIn(api.url, "desk@example.com");
    const saved = await save(s, { deskPolicy: "manual" });
    assert.equal(saved.status, 200, saved.text);
    assert.equal(saved.body.data.deskPolicy, "manual");
    assert.equal((await me(s)).wizard.deskPolicy, "manual");
    assertError(await save(s, { deskPolicy: "sometimes" }), "INVALID_INPUT");
    assert.equal((await me(s)).wizard.deskPolicy, "manual", "a refused save changes nothing");
    assert.equal((await save(s, { deskPolicy: null })).status, 200);
    assert.equal((await me(s)).wizard.deskPolicy, null);
  });

  it("twoUsers_neverSeeEachOthersProgress", async () => {
    const a = await signIn(api.url, "a@example.com");
    const b = await signIn(api.url, "b@example.com");
    await save(a, { step: 3, brand: "alpha" });
    assert.equal((await me(b)).wizard.step, 1);
    assert.equal((await me(b)).wizard.brand, null);
  });

  it("nullClearsAField", async () => {
    const s = await signIn(api.url, "clear@example.com");
    await save(s, { brand: "clearme" });
    const res = await save(s, { brand: null });
    assert.equal(res.body.data.brand, null);
  });

  it("theChain_cannotChangeOnceADeployStarted_409", async () => {
    const s = await signIn(api.url, "locked@example.com");
    const taskId = await task("locked@example.com", "lockedbrand", "succeeded", "lockedbrand");
    assert.equal((await save(s, { step: 6, chainId: 31337 })).status, 200);
    assert.equal((await save(s, { step: 7, taskId })).status, 200);
    const res = await save(s, { chainId: 1 });
    assertError(res, "CONFLICT");
    assert.match(res.body.error.message, /sign out and restart to change the chain/);
    assert.deepEqual(res.body.error.details, { field: "chainId", chainId: 31337, taskId });
    // Saving the same chain, or other fields, still works.
    assert.equal((await save(s, { chainId: 31337, step: 8 })).status, 200);
    assertError(await save(s, { taskId: await task("locked@example.com", "lockedtwo", "queued", null) }), "CONFLICT");
    assertError(await save(s, { taskId: null }), "CONFLICT");
    assert.equal((await me(s)).wizard.chainId, 31337);
  });

  it("restart_resetsTheWizardToStep1_andUnlocksTheChain", async () => {
    const s = await signIn(api.url, "again@example.com");
    const taskId = await task("again@example.com", "again", "queued", null);
    const started = await save(s, { step: 7, chainId: 31337, brand: "again", taskId, wallet: WALLET });
    assert.equal(started.status, 200, started.text);
    const res = await withSession(api.url, s, "POST", "/console/v1/wizard/restart");
    assert.equal(res.status, 200, res.text);
    const empty = {
      step: 1,
      wallet: null,
      organization: null,
      chainId: null,
      token: null,
      brand: null,
      deskPolicy: null,
      taskId: null,
      programId: null,
    };
    assert.deepEqual(res.body.data, empty);
    // The console then signs out; signing in again starts from step 1.
    await withSession(api.url, s, "POST", "/console/v1/auth/logout");
    const s2 = await signIn(api.url, "again@example.com");
    assert.deepEqual((await me(s2)).wizard, empty);
    assert.equal((await save(s2, { chainId: 1 })).status, 200);
  });

  describe("the program is the account's own deploy, never the client's word", () => {
    it("programId_inTheBody_isRefused_400", async () => {
      const s = await signIn(api.url, "pointer@example.com");
      const res = await save(s, { programId: "victim" });
      assertError(res, "INVALID_INPUT");
      assert.equal(res.body.error.details.issues[0].field, "body");
      assert.equal((await me(s)).wizard.programId, null);
    });

    it("anotherAccountsTask_isNotFound_404_andLeavesTheWizardAlone", async () => {
      const victimTask = await task("victim@example.com", "victim", "succeeded", "victim");
      const s = await signIn(api.url, "attacker@example.com");
      await save(s, { step: 6, chainId: 31337 });
      const res = await save(s, { step: 7, taskId: victimTask });
      assertError(res, "NOT_FOUND");
      assert.deepEqual(res.body.error.details, { field: "taskId" });
      const wizard = (await me(s)).wizard;
      assert.equal(wizard.taskId, null);
      assert.equal(wizard.programId, null);
      assert.equal(wizard.step, 6);
    });

    it("theFinalSteps_needTheOwnTaskToHaveSucceeded_409", async () => {
      const email = "early@example.com";
      const s = await signIn(api.url, email);
      for (const step of [8, 9]) {
        const res = await save(s, { step });
        assertError(res, "CONFLICT", `step ${step} without a task`);
        assert.deepEqual(res.body.error.details, { field: "step", taskId: null });
      }
      const queued = await task(email, "earlybrand", "queued", null);
      assert.equal((await save(s, { step: 7, chainId: 31337, taskId: queued })).status, 200);
      assertError(await save(s, { step: 9 }), "CONFLICT");
      assert.equal((await me(s)).wizard.step, 7);
      // The deploy succeeds: the server names the program and opens the dashboard.
      await api.service.ctx.db.query(
        "UPDATE onboarding_tasks SET status = 'succeeded', program_id = $2 WHERE id = $1",
        [queued, "earlybrand"],
      );
      assert.equal((await me(s)).wizard.programId, "earlybrand");
      const done = await save(s, { step: 9 });
      assert.equal(done.status, 200, done.text);
      assert.equal(done.body.data.programId, "earlybrand");
      assert.equal((await me(s)).wizard.step, 9);
    });

    it("aWizardStoredBeforeTheFix_withAClientProgramId_opensNoProgram", async () => {
      const email = "legacy@example.com";
      const s = await signIn(api.url, email);
      await api.service.ctx.db.query("UPDATE console_users SET wizard = $2 WHERE email = $1", [
        email,
        JSON.stringify({ step: 9, programId: "victim", brand: "victim" }),
      ]);
      const wizard = (await me(s)).wizard;
      assert.equal(wizard.programId, null);
      assert.equal(wizard.step, 6);
    });
  });

  it("wizardRoutes_needASession_andAnApiKeyDoesNotSuffice", async () => {
    const { key } = await api.service.ctx.keys.create("wizard");
    const bearer = { authorization: `Bearer ${key}`, "content-type": "application/json" };
    for (const [method, path, body] of [
      ["GET", "/console/v1/me", undefined],
      ["PUT", "/console/v1/wizard", '{"step":2}'],
      ["POST", "/console/v1/wizard/restart", undefined],
    ] as const) {
      assertError(
        await send(api.url, method, path, { body, headers: { "content-type": "application/json" } }),
        "UNAUTHORIZED",
      );
      assertError(await send(api.url, method, path, { body, headers: bearer }), "UNAUTHORIZED", `${path} with a key`);
    }
  });

  it("save_refusesAChainTheServerDoesNotDeployTo_andBadFields", async () => {
    const s = await signIn(api.url, "strict@example.com");
    const chain = await save(s, { chainId: 5 });
    assertError(chain, "INVALID_INPUT");
    assert.equal(chain.body.error.details.issues[0].field, "body.chainId");
    for (const [body, field] of [
      [{ step: 10 }, "body.step"],
      [{ brand: "Acme" }, "body.brand"],
      [{ wallet: "0x1234" }, "body.wallet"],
      [{ organization: { website: "acme.example" } }, "body.organization.website"],
      [{ taskId: "not-a-uuid" }, "body.taskId"],
      [{}, "body"],
    ] as const) {
      const res = await save(s, body);
      assertError(res, "INVALID_INPUT", JSON.stringify(body));
      assert.ok(res.body.error.message.startsWith(field), res.body.error.message);
    }
  });

  describe("chains and brands", () => {
    it("chains_listsTheConfiguredChains_testnetsRecommended", async () => {
      const res = await send(api.url, "GET", "/console/v1/chains");
      assert.equal(res.status, 200);
      assert.deepEqual(res.body.data, [
        { chainId: 31337, name: "Hardhat", testnet: true, explorerUrl: null, recommended: true },
        { chainId: 1, name: "Ethereum", testnet: false, explorerUrl: "https://etherscan.io", recommended: false },
      ]);
    });

    const available = async (brand: string) =>
      (await send(api.url, "GET", `/console/v1/brands/${encodeURIComponent(brand)}/available`)).body.data;

    it("brand_freeAndValid_isAvailable", async () => {
      assert.deepEqual(await available("freshbrand"), { brand: "freshbrand", available: true });
    });

    it("brand_breakingTheRule_isUnavailable_reasonInvalid", async () => {
      for (const brand of ["Acme", "ac-me", "b".repeat(33), "acme!"]) {
        const res = await available(brand);
        assert.equal(res.available, false, brand);
        assert.equal(res.reason, "invalid", brand);
      }
    });

    it("brand_ofARegisteredProgram_isUnavailable_reasonProgram", async () => {
      await api.service.ctx.programs.insert(programRecord("taken"));
      assert.deepEqual(await available("taken"), {
        brand: "taken",
        available: false,
        reason: "program",
        message: "a program with this brand exists",
      });
    });

    it("brand_claimedByAnOnboardingTask_isUnavailable_reasonTask", async () => {
      const db = api.service.ctx.db;
      const [{ present }] = await db.query<{ present: boolean }>(
        "SELECT to_regclass('onboarding_tasks') IS NOT NULL AS present",
      );
      // Before the onboarding migration lands on this branch: the columns it defines that matter here.
      if (!present) {
        await db.exec(`CREATE TABLE onboarding_tasks (id TEXT PRIMARY KEY, request_hash TEXT NOT NULL,
          request JSONB NOT NULL, brand TEXT NOT NULL UNIQUE, chain_id TEXT NOT NULL, status TEXT NOT NULL)`);
      }
      assert.equal((await available("pending")).available, true);
      await db.query(
        "INSERT INTO onboarding_tasks (id, request_hash, request, brand, chain_id, status) VALUES ($1, 'h', '{}', 'pending', '31337', 'queued')",
        [randomUUID()],
      );
      const res = await available("pending");
      assert.equal(res.available, false);
      assert.equal(res.reason, "task");
    });
  });
});
