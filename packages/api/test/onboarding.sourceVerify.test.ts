import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { routes } from "@points/schema";
import { actors, startFakeEtherscan, type DevNode, startNode } from "@points/testkit";
import { bearerFor, DEPLOY_SCOPES, startApi, type TestApi } from "./helpers/service.js";
import { onboardingBody, waitForTask } from "./helpers/onboarding.js";
import { captureLogs } from "./helpers/logs.js";
import { DbManifestStore } from "../src/core/onboarding/store.js";

const KEY = "verify-test-key-5f1c0ab2e7";
const BROWSER = "https://explorer.example";

type Verification = {
  status: string;
  message: string | null;
  contracts: {
    contract: string;
    address: string;
    status: string;
    url: string | null;
    reason: string | null;
    attempts: number;
  }[];
};

/**
 * Source verification run by the service (docs/deployment.md#source-verification): after a
 * program deploys, the worker's verification job submits the release's contracts and the
 * program's proxies to a local Etherscan-style server that compiles each submission with solc
 * WASM and compares it with the code on the chain.
 */
describe("source verification: the service verifies every deployed program on the chain's explorer", () => {
  let node: DevNode;
  let explorer: Awaited<ReturnType<typeof startFakeEtherscan>>;
  let api: TestApi;
  let auth: Record<string, string>;
  const logs = captureLogs();
  const chains = (apiUrl: string) =>
    JSON.stringify([
      {
        chainId: 31337,
        name: "Hardhat",
        rpcUrl: node.url,
        blockTimeMs: 200,
        explorerUrl: BROWSER,
        sourceVerify: { etherscanApiUrl: apiUrl },
      },
    ]);
  const env = { WORKER_POLL_MS: "50", VERIFY_POLL_MS: "2000", VERIFY_RETRY_MIN_MS: "300" };

  before(async () => {
    node = await startNode();
    explorer = await startFakeEtherscan(node.provider, KEY);
    api = await startApi(
      node.url,
      { ...env, CHAINS: chains(explorer.apiUrl), ETHERSCAN_API_KEY: KEY },
      { logger: logs.logger("info") },
    );
    auth = await bearerFor(api.service, "verify", DEPLOY_SCOPES);
  });
  after(async () => {
    await api?.close();
    await explorer?.close();
    await node?.stop();
  });

  const deploy = async (on: TestApi, brand: string, headers: Record<string, string>) => {
    const res = await on.call(
      "POST",
      "/api/v1/client-onboarding/deploy",
      onboardingBody(brand, actors(node.provider).brand.address),
      headers,
    );
    assert.equal(res.status, 202, JSON.stringify(res.body));
    return res.body.data as { taskId: string; predicted: Record<string, string | null> | null };
  };
  /** Polls the task until its verification passes `done` (solc WASM compiles each contract: minutes on a loaded machine). */
  const verificationOf = async (
    on: TestApi,
    taskId: string,
    headers: Record<string, string>,
    done: (v: Verification) => boolean,
  ) => {
    const deadline = Date.now() + 600_000;
    for (;;) {
      const res = await on.call("GET", `/api/v1/client-onboarding/tasks/${taskId}`, undefined, headers);
      assert.equal(res.status, 200);
      const v = res.body.data.program?.verification as Verification | undefined;
      if (v && done(v)) return { task: res.body.data, v };
      if (Date.now() > deadline) throw new Error(`verification still ${JSON.stringify(v)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  };

  it("anExplorerThatRateLimitsThenIsDown_leavesTheTaskSucceeded_andIsRetriedUntilEveryContractIsVerified", async () => {
    explorer.state.limited = true;
    const { taskId } = await deploy(api, "acme", auth);
    const task = await waitForTask(api, taskId, auth);
    assert.equal(task.status, "succeeded", "the program does not wait for its explorer");
    assert.ok(task.stages.every((s: { status: string }) => s.status === "done"));
    assert.equal(routes.onboardingTask.response.safeParse({ success: true, data: task }).success, true);

    const limited = await verificationOf(api, taskId, auth, (v) =>
      v.contracts.some((c) => c.attempts >= 1 && !!c.reason),
    );
    assert.equal(limited.v.status, "pending");
    const waiting = limited.v.contracts.find((c) => c.reason)!;
    assert.match(waiting.reason!, /etherscan did not answer \(the explorer answered HTTP 429\); asking again later/);
    assert.equal(explorer.verified.size, 0);

    explorer.state.limited = false;
    explorer.state.down = true;
    const down = await verificationOf(api, taskId, auth, (v) =>
      v.contracts.some((c) => /HTTP 503/.test(c.reason ?? "")),
    );
    assert.equal(down.v.status, "pending");
    assert.ok(down.v.contracts.every((c) => c.url === null));
    const failedDown = down.v.contracts.find((c) => /HTTP 503/.test(c.reason ?? ""))!;

    explorer.state.down = false;
    const { task: done, v } = await verificationOf(api, taskId, auth, (x) => x.status !== "pending");
    assert.equal(v.status, "verified", JSON.stringify(v, null, 2));
    assert.equal(v.message, null);
    const a = done.program.addresses;
    const proxies = v.contracts.filter((c) => !c.contract.startsWith("release/"));
    assert.deepEqual(
      proxies.map((c) => [c.contract, c.address]).sort(),
      Object.entries(a)
        .filter(([, addr]) => addr)
        .sort(),
      "every proxy of the program",
    );
    const release = (await new DbManifestStore(api.service.ctx.db).getRelease(31337n))!;
    assert.deepEqual(
      v.contracts
        .filter((c) => c.contract.startsWith("release/"))
        .map((c) => [c.contract, c.address])
        .sort(),
      Object.values(release.contracts)
        .map((d) => [`release/${d.artifact}`, d.address])
        .sort(),
      "every contract of the release: implementations and ProgramFactory",
    );
    // Each answer that turned a contract away (429, then 503: on one contract or two) was
    // followed by another attempt, the one that verified it.
    const refused = new Map<string, number>();
    for (const c of [waiting.contract, failedDown.contract]) refused.set(c, (refused.get(c) ?? 0) + 1);
    for (const [contract, times] of refused) {
      const attempts = v.contracts.find((c) => c.contract === contract)!.attempts;
      assert.ok(
        attempts >= times + 1,
        `${contract} turned away ${times} time(s), then asked again (${attempts} attempts)`,
      );
    }
    for (const c of v.contracts) {
      assert.equal(c.status, "verified");
      assert.equal(c.url, `${BROWSER}/address/${c.address}#code`);
      // The explorer compiled the submission and matched it with the code on the chain.
      assert.ok(explorer.verified.has(c.address.toLowerCase()), c.contract);
    }
    assert.ok(!JSON.stringify(done).includes(KEY), "the key is never in a response");
  });

  it("aContractTheExplorerAlreadyShows_isVerified_fromItsAlreadyVerifiedAnswer", async () => {
    const release = (await new DbManifestStore(api.service.ctx.db).getRelease(31337n))!;
    const submitted = (address: string) => explorer.submissions.filter((s) => s.address === address).length;
    const before = Object.values(release.contracts).map((d) => submitted(d.address));
    const { taskId, predicted } = await deploy(api, "beta", auth);
    // Someone verified the Points proxy before the service got to it.
    explorer.verified.add(predicted!.points!.toLowerCase());
    const { task, v } = await verificationOf(api, taskId, auth, (x) => x.status !== "pending");
    assert.equal(v.status, "verified", JSON.stringify(v));
    const points = v.contracts.find((c) => c.contract === "points")!;
    assert.equal(points.address, task.program.addresses.points);
    assert.equal(points.url, `${BROWSER}/address/${points.address}#code`);
    assert.equal(
      explorer.submissions.filter((s) => s.address === points.address).length,
      0,
      "no source compiled for it",
    );
    // The release's contracts, verified for acme, are listed verified and not submitted again.
    assert.ok(v.contracts.filter((c) => c.contract.startsWith("release/")).every((c) => c.status === "verified"));
    assert.deepEqual(
      Object.values(release.contracts).map((d) => submitted(d.address)),
      before,
    );
  });

  it("aWrongApiKey_failsVerificationWithAClearReason_theTaskStillSucceeds_andTheKeyIsNeitherLoggedNorReturned", async () => {
    const wrongKey = "wrong-explorer-key-77aa1d";
    const other = captureLogs();
    const second = await startApi(
      node.url,
      { ...env, CHAINS: chains(explorer.apiUrl), ETHERSCAN_API_KEY: wrongKey },
      { logger: other.logger("debug") },
    );
    try {
      const headers = await bearerFor(second.service, "verify", DEPLOY_SCOPES);
      const { taskId } = await deploy(second, "gamma", headers);
      assert.equal((await waitForTask(second, taskId, headers)).status, "succeeded");
      const settled = (x: Verification) => x.contracts.length > 0 && x.contracts.every((c) => c.status !== "pending");
      const { task, v } = await verificationOf(second, taskId, headers, settled);
      assert.equal(v.status, "failed");
      assert.match(v.message!, /failed; .+: etherscan refused the source: Invalid API Key/);
      for (const c of v.contracts) {
        assert.equal(c.status, "failed");
        assert.equal(c.reason, "etherscan refused the source: Invalid API Key");
        assert.equal(c.url, null);
      }
      assert.ok(!JSON.stringify(task).includes(wrongKey), "not in the response");
      assert.ok(other.lines.length > 0 && !other.lines.some((l) => l.includes(wrongKey)), "not in the logs");
    } finally {
      await second.close();
    }
    assert.ok(!logs.lines.some((l) => l.includes(KEY)), "the first service never logged its key either");
  });
});
