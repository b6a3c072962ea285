import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { Contract, id } from "ethers";
import { Factory__factory } from "@points/contracts";
import { actors, type DevNode, signAndSend, startNode } from "@points/testkit";
import { bearerFor, DEPLOY_SCOPES, startApi, type TestApi } from "./helpers/service.js";
import { onboardingBody, waitForTask } from "./helpers/onboarding.js";

const EXECUTOR_ROLE = id("EXECUTOR_ROLE");
const MANAGER_ROLE = id("MANAGER_ROLE");

// EXECUTOR_ROLE follows the redemption desk policy (docs/deployment.md#redemption-desk): a
// program deployed with its desk off leaves the executor out, and its managers (MANAGER_ROLE
// administers EXECUTOR_ROLE on the Factory) grant and revoke it later; the desk acts only with it.
describe("redemption desk: EXECUTOR_ROLE follows the desk policy chosen at deploy", () => {
  let node: DevNode;
  let api: TestApi;
  let auth: Record<string, string>;
  let otherTenant: Record<string, string>;
  let quiet: Contract;
  let busy: Contract;
  const who = () => actors(node.provider);

  async function deploy(brand: string, deskPolicy: "off" | "automatic") {
    const body = onboardingBody(brand, who().brand.address, { deskPolicy });
    const res = await api.call("POST", "/api/v1/client-onboarding/deploy", body, auth);
    assert.equal(res.status, 202, JSON.stringify(res.body));
    const task = await waitForTask(api, res.body.data.taskId, auth, 120_000);
    assert.equal(task.status, "succeeded", JSON.stringify(task.error));
    return task;
  }
  const desk = async (brand: string, as = auth) => {
    const res = await api.call("GET", `/api/v1/programs/${brand}/redemption-desk`, undefined, as);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.data as { policy: string; status: string; executor: string };
  };
  const build = (fn: "grant" | "revoke", program: string, key: string) =>
    api.call(
      fn === "grant" ? "PUT" : "DELETE",
      `/api/v1/roles/${fn}`,
      { input: { contract: "factory", role: "EXECUTOR_ROLE", account: who().executor.address }, key, program },
      auth,
    );

  before(async () => {
    node = await startNode();
    api = await startApi(node.url, { WORKER_POLL_MS: "50" });
    auth = await bearerFor(api.service, "brand", DEPLOY_SCOPES);
    otherTenant = await bearerFor(api.service, "other", DEPLOY_SCOPES);
    const quietTask = await deploy("quiet", "off");
    const busyTask = await deploy("busy", "automatic");
    assert.deepEqual(quietTask.program.rolesAtBirth.factory.EXECUTOR_ROLE, []);
    assert.deepEqual(busyTask.program.rolesAtBirth.factory.EXECUTOR_ROLE, [who().executor.address]);
    quiet = new Contract(quietTask.program.addresses.factory, Factory__factory.abi, node.provider);
    busy = new Contract(busyTask.program.addresses.factory, Factory__factory.abi, node.provider);
  });
  after(async () => {
    await api?.close();
    await node?.stop();
  });

  it("deskOffAtDeploy_theExecutorHasNoEXECUTOR_ROLE_andTheDeskSaysSo; automatic_grantsIt_andStartsAutomatic", async () => {
    const { executor } = who();
    assert.equal(await quiet.hasRole(EXECUTOR_ROLE, executor.address), false);
    assert.equal(await quiet.getRoleAdmin(EXECUTOR_ROLE), MANAGER_ROLE);
    const q = await desk("quiet");
    assert.deepEqual([q.policy, q.status], ["off", "executor_missing_role"]);
    assert.equal(await busy.hasRole(EXECUTOR_ROLE, executor.address), true);
    const b = await desk("busy");
    assert.deepEqual([b.policy, b.status], ["automatic", "ready"]);
  });

  it("attack_theExecutor_anOutsider_orAManagerOfAnotherProgram_buildingTheGrant_is403MissingManagerRole", async () => {
    const { executor, outsider, carol, brand } = who();
    // carol manages "busy" only: a manager of another program.
    await (await (busy.connect(brand) as Contract).grantRole(MANAGER_ROLE, carol.address)).wait();
    for (const key of [executor.address, outsider.address, carol.address]) {
      for (const fn of ["grant", "revoke"] as const) {
        const res = await build(fn, "quiet", key);
        assert.equal(res.status, 403, JSON.stringify(res.body));
        assert.equal(res.body.error.code, "MISSING_ROLE");
        assert.deepEqual(
          [res.body.error.details.contract, res.body.error.details.role, res.body.error.details.account],
          ["factory", "MANAGER_ROLE", key],
        );
      }
    }
    assert.equal(await quiet.hasRole(EXECUTOR_ROLE, executor.address), false);
  });

  it("attack_anotherTenantsKey_cannotSeeTheDesk_404", async () => {
    const res = await api.call("GET", "/api/v1/programs/quiet/redemption-desk", undefined, otherTenant);
    assert.equal(res.status, 404, JSON.stringify(res.body));
    assert.equal(res.body.error.code, "NOT_FOUND");
  });

  it("aManagerWhoIsNotTheAdmin_grantsEXECUTOR_ROLE_throughTheRolesRoute_theDeskIsReady_thenRevokes_andItIsMissingAgain", async () => {
    const { executor, alice, brand } = who();
    await (await (quiet.connect(brand) as Contract).grantRole(MANAGER_ROLE, alice.address)).wait();
    const grant = await build("grant", "quiet", alice.address);
    assert.equal(grant.status, 200, JSON.stringify(grant.body));
    assert.equal(grant.body.data.call.function, "grantRole");
    await signAndSend(node.provider, alice, grant.body.data);
    assert.equal(await quiet.hasRole(EXECUTOR_ROLE, executor.address), true);
    // The policy stays off: the executor could act, the desk says it does nothing.
    assert.equal((await desk("quiet")).status, "off");

    const revoke = await build("revoke", "quiet", alice.address);
    assert.equal(revoke.status, 200, JSON.stringify(revoke.body));
    await signAndSend(node.provider, alice, revoke.body.data);
    assert.equal(await quiet.hasRole(EXECUTOR_ROLE, executor.address), false);
    assert.equal((await desk("quiet")).status, "executor_missing_role");
  });
});
