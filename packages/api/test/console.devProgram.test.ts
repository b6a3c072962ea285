import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { assertError } from "./helpers/http.js";
import { startApi, type TestApi } from "./helpers/service.js";
import { signIn, withSession } from "./helpers/console.js";
import { programRecord } from "./helpers/records.js";
import { createDevProgramAccount } from "../src/index.js";

const CLOSED_PORT = "http://127.0.0.1:9";
const BRAND_WALLET = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const CHAINS = [
  { chainId: 31337, name: "Hardhat", rpcUrl: CLOSED_PORT },
  { chainId: 8453, name: "Base", rpcUrl: CLOSED_PORT, testnet: false },
];

describe("console: pnpm start's demo account opens the demo program", () => {
  let api: TestApi;

  before(async () => {
    api = await startApi(CLOSED_PORT, { CHAINS: JSON.stringify(CHAINS), EXECUTOR_PRIVATE_KEY: `0x${"1".repeat(64)}` });
    await api.service.ctx.programs.insert(programRecord("demo"));
    await api.service.ctx.programs.insert(programRecord("basebrand", { chainId: "8453" }));
  });
  after(async () => {
    await api?.close();
  });

  const me = async (session: string) => (await withSession(api.url, session, "GET", "/console/v1/me")).body.data;

  it("theDemoAccount_signsInAtTheDashboardOfTheDemoProgram", async () => {
    const { email } = await createDevProgramAccount(api.service.ctx, "demo", BRAND_WALLET.toLowerCase());
    assert.match(email, /^demo-[0-9a-f]{12}@console\.localhost$/);
    const session = await signIn(api.url, email);
    const { wizard, wallet } = await me(session);
    assert.equal(wallet, BRAND_WALLET);
    assert.deepEqual(wizard, {
      step: 9,
      wallet: BRAND_WALLET,
      organization: null,
      chainId: 31337,
      token: null,
      brand: "demo",
      deskPolicy: null,
      taskId: null,
      programId: "demo",
    });
    // Saving keeps the program (the attachment is not a client field), restarting drops it.
    const saved = await withSession(api.url, session, "PUT", "/console/v1/wizard", { step: 9 });
    assert.equal(saved.status, 200, saved.text);
    assert.equal(saved.body.data.programId, "demo");
    await withSession(api.url, session, "POST", "/console/v1/wizard/restart");
    assert.equal((await me(session)).wizard.programId, null);
  });

  it("freshCredentialsEachStart_andNoOtherAccountSeesTheProgram", async () => {
    const a = await createDevProgramAccount(api.service.ctx, "demo", BRAND_WALLET);
    const b = await createDevProgramAccount(api.service.ctx, "demo", BRAND_WALLET);
    assert.notEqual(a.email, b.email);
    const other = await signIn(api.url, "someone@example.com");
    assert.equal((await me(other)).wizard.programId, null);
    assertError(
      await withSession(api.url, other, "PUT", "/console/v1/wizard", { attachedProgramId: "demo" }),
      "INVALID_INPUT",
    );
    assertError(await withSession(api.url, other, "PUT", "/console/v1/wizard", { step: 9 }), "CONFLICT");
    assert.equal((await me(other)).wizard.programId, null);
  });

  // The desk's access rule wanted an onboarding task, which the demo program
  // has not, so pnpm start's Redemption desk tab said "no program demo on your redemption desk".
  it("theDemoAccount_reachesTheDemoProgramsDesk_anotherAccountStill404", async () => {
    const { email } = await createDevProgramAccount(api.service.ctx, "demo", BRAND_WALLET);
    // Past the access rule the desk reads the chain, which this test's closed port does not serve.
    const demo = await withSession(
      api.url,
      await signIn(api.url, email),
      "GET",
      "/api/v1/programs/demo/redemption-desk",
    );
    assertError(demo, "CHAIN_UNAVAILABLE");
    const other = await signIn(api.url, "neighbour@example.com");
    assertError(await withSession(api.url, other, "GET", "/api/v1/programs/demo/redemption-desk"), "NOT_FOUND");
  });

  it("refused_offADevChainId_orOffALoopbackHost", async () => {
    const ctx = api.service.ctx;
    await assert.rejects(createDevProgramAccount(ctx, "basebrand", BRAND_WALLET), /not on a dev chain/);
    const exposed = { ...ctx, config: { ...ctx.config, host: "0.0.0.0" } };
    await assert.rejects(createDevProgramAccount(exposed, "demo", BRAND_WALLET), /loopback host/);
    const production = { ...ctx, config: { ...ctx.config, production: true } };
    await assert.rejects(createDevProgramAccount(production, "demo", BRAND_WALLET), /loopback host/);
    const remoteRpc = {
      ...ctx,
      config: { ...ctx.config, chains: [{ ...ctx.config.chains[0], rpcUrl: "http://10.0.0.5:8545" }] },
    };
    await assert.rejects(createDevProgramAccount(remoteRpc, "demo", BRAND_WALLET), /not on a dev chain/);
  });
});
