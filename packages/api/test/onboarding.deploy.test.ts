import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { Contract, id, ZeroHash } from "ethers";
import { Factory__factory, PSPVault__factory, Points__factory, ProgramFactory__factory } from "@points/contracts";
import { routes } from "@points/schema";
import { actors, deployProgram, type DevNode, signAndSend, startNode } from "@points/testkit";
import { DbManifestStore } from "../src/core/onboarding/store.js";
import { bearerFor, DEPLOY_SCOPES, startApi, type TestApi } from "./helpers/service.js";
import { onboardingBody, waitForTask } from "./helpers/onboarding.js";

describe("onboarding: a whole program over HTTP", () => {
  let node: DevNode;
  let api: TestApi;
  let auth: Record<string, string>;

  before(async () => {
    node = await startNode();
    api = await startApi(node.url, { WORKER_POLL_MS: "50" });
    auth = await bearerFor(api.service, "onboarding", DEPLOY_SCOPES);
  });
  after(async () => {
    await api?.close();
    await node?.stop();
  });

  it("deploy_runsEveryStage_registersTheProgram_andRolesOnChainMatchTheRecord", async () => {
    const { brand, executor } = actors(node.provider);
    const res = await api.call("POST", "/api/v1/client-onboarding/deploy", onboardingBody("acme", brand.address), auth);
    assert.equal(res.status, 202, JSON.stringify(res.body));
    assert.equal(routes.onboardingDeploy.response.safeParse(res.body).success, true);
    const task = await waitForTask(api, res.body.data.taskId, auth);
    assert.equal(task.status, "succeeded", JSON.stringify(task, null, 2));
    assert.equal(routes.onboardingTask.response.safeParse({ success: true, data: task }).success, true);
    assert.deepEqual(
      task.stages.map((s: { name: string; status: string }) => [s.name, s.status]),
      [
        ["validate", "done"],
        ["release", "done"],
        ["deploy", "done"],
        ["verify", "done"],
        ["register", "done"],
      ],
    );
    const deployTx = task.stages.find((s: { name: string }) => s.name === "deploy").transactions;
    // On a dev chain without collateral a mock stablecoin comes first; then ONE transaction
    // deploys and initializes the whole program.
    assert.deepEqual(
      deployTx.map((t: { description: string }) => t.description),
      ["deploy MockStablecoin", "ProgramFactory.deployProgram(acme)"],
    );

    const { addresses } = task.program;
    const pf = new Contract(
      (await api.service.ctx.programs.get("acme")).programFactory!,
      ProgramFactory__factory.abi,
      node.provider,
    );
    assert.equal((await pf.programOf("acme")).factory, addresses.factory);
    const factory = new Contract(addresses.factory, Factory__factory.abi, node.provider);
    const psp = new Contract(addresses.pspVault, PSPVault__factory.abi, node.provider);
    const points = new Contract(addresses.points, Points__factory.abi, node.provider);
    assert.equal(await factory.defaultAdmin(), brand.address);
    assert.equal(await factory.hasRole(id("EXECUTOR_ROLE"), executor.address), true);
    assert.equal(await factory.hasRole(ZeroHash, executor.address), false);
    assert.equal(await psp.hasRole(id("ISSUING_ADMIN_ROLE"), brand.address), true);
    assert.equal(await points.hasRole(id("MINTER_ROLE"), addresses.factory), true);
    assert.deepEqual(task.program.rolesAtBirth.factory.EXECUTOR_ROLE, [executor.address]);
    assert.deepEqual(task.program.rolesAtBirth.factory.MANAGER_ROLE, [brand.address]);
    assert.equal(task.program.explorer, null, "a local chain has no explorer");
    assert.deepEqual(task.predicted === null ? null : task.predicted.factory, task.predicted && addresses.factory);

    // The open registry shows public chain facts; the organization, the deployer and the task id
    // are the tenant's, and only its task route (with its key) shows them.
    const listed = await api.call("GET", "/api/v1/contracts/factories");
    const program = listed.body.data.find((p: { brand: string }) => p.brand === "acme");
    assert.equal(program.factory, addresses.factory);
    assert.deepEqual(Object.keys(program.metadata).sort(), ["collateralAsset", "token"]);
    assert.equal(program.metadata.token.logoUrl, "https://acme.example/logo.png");
    const byId = await api.call("GET", `/api/v1/contracts/factories/${program.id}`);
    const onChain = await api.call("GET", `/api/v1/contracts/chain/${program.chainId}`);
    for (const view of [byId.body.data, onChain.body.data.programs.find((p: { id: string }) => p.id === program.id)]) {
      assert.deepEqual(view.metadata, program.metadata);
    }
    const anonymous = JSON.stringify([listed.body, byId.body, onChain.body]);
    for (const secret of [task.id, brand.address, brand.address.toLowerCase(), "Acme Inc.", "Coffee shops"]) {
      assert.equal(anonymous.includes(secret), false, `the open registry shows ${secret}`);
    }
    assert.deepEqual(task.organization, onboardingBody("acme", brand.address).organization);
    assert.equal(task.deployer, brand.address);

    // The brand wallet can act as MANAGER through a build route at once.
    const { alice } = actors(node.provider);
    const build = await api.call(
      "POST",
      "/studio/sdk/v1/tx/whitelist/mint/add",
      { account: alice.address, from: brand.address, program: "acme" },
      auth,
    );
    assert.equal(build.status, 200, JSON.stringify(build.body));
    await signAndSend(node.provider, brand, build.body.data);
    assert.equal(await factory.isMintWhitelisted(alice.address), true);
  });

  it("attack_aBrandLivingOnAnEarlierReleaseOfTheChain_isRefusedBrandTaken_notDeployedASecondTime", async () => {
    // An earlier ProgramFactory release the service knows (a registered program came from it)
    // holds "twice", deployed there outside the service; the service's newest release does not.
    const older = await deployProgram(node.provider, "olderbrand");
    await api.service.ctx.programs.insert(older.record);
    await deployProgram(node.provider, "twice", {
      release: { programFactory: older.programFactory, usdc: older.usdc },
    });
    const newest = (await new DbManifestStore(api.service.ctx.db).getRelease(31337n))!.programFactory;
    assert.notEqual(newest, older.programFactory);
    const tasksBefore = await api.service.ctx.db.query("SELECT id FROM onboarding_tasks");
    const { brand } = actors(node.provider);
    const res = await api.call(
      "POST",
      "/api/v1/client-onboarding/deploy",
      onboardingBody("twice", brand.address),
      auth,
    );
    assert.equal(res.status, 409, JSON.stringify(res.body));
    assert.equal(res.body.error.code, "CONFLICT");
    assert.deepEqual(res.body.error.details, { reason: "BRAND_TAKEN", programFactory: older.programFactory });
    assert.equal(res.body.error.message, "brand twice already has a program on chain 31337");
    const tasksAfter = await api.service.ctx.db.query("SELECT id FROM onboarding_tasks");
    assert.equal(tasksAfter.length, tasksBefore.length, "nothing queued");
  });
});
