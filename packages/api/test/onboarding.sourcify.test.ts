import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { actors, startFakeEtherscan, startFakeSourcify, type DevNode, startNode } from "@points/testkit";
import { bearerFor, DEPLOY_SCOPES, startApi, type TestApi } from "./helpers/service.js";
import { onboardingBody, waitForTask } from "./helpers/onboarding.js";

const KEY = "verify-test-key-3b9e41c0d2";
const BROWSER = "https://explorer.example";
const REPO = "https://repo.sourcify.example";

type Row = {
  contract: string;
  address: string;
  explorer: string;
  status: string;
  url: string | null;
  reason: string | null;
};
type Verification = { status: string; contracts: Row[] };

/**
 * A chain verified on Etherscan and Sourcify (docs/deployment.md#source-verification): both local
 * servers compile each submission with solc WASM and compare it with the code on the chain.
 */
describe("source verification on two explorers: Etherscan and Sourcify", () => {
  let node: DevNode;
  let etherscan: Awaited<ReturnType<typeof startFakeEtherscan>>;
  let sourcify: Awaited<ReturnType<typeof startFakeSourcify>>;
  let api: TestApi;
  let auth: Record<string, string>;

  before(async () => {
    node = await startNode();
    etherscan = await startFakeEtherscan(node.provider, KEY);
    sourcify = await startFakeSourcify(node.provider);
    const chains = [
      {
        chainId: 31337,
        name: "Hardhat",
        rpcUrl: node.url,
        blockTimeMs: 200,
        explorerUrl: BROWSER,
        sourceVerify: { etherscanApiUrl: etherscan.apiUrl, sourcifyApiUrl: sourcify.apiUrl, sourcifyBrowserUrl: REPO },
      },
    ];
    const env = { WORKER_POLL_MS: "50", VERIFY_POLL_MS: "2000", VERIFY_RETRY_MIN_MS: "300" };
    api = await startApi(node.url, { ...env, CHAINS: JSON.stringify(chains), ETHERSCAN_API_KEY: KEY });
    auth = await bearerFor(api.service, "verify", DEPLOY_SCOPES);
  });
  after(async () => {
    await api?.close();
    await sourcify?.close();
    await etherscan?.close();
    await node?.stop();
  });

  /** Polls the task until its verification passes `done` (solc WASM: minutes on a loaded machine). */
  const verificationOf = async (taskId: string, done: (v: Verification) => boolean) => {
    const deadline = Date.now() + 600_000;
    for (;;) {
      const res = await api.call("GET", `/api/v1/client-onboarding/tasks/${taskId}`, undefined, auth);
      assert.equal(res.status, 200);
      const v = res.body.data.program?.verification as Verification | undefined;
      if (v && done(v)) return v;
      if (Date.now() > deadline) throw new Error(`verification still ${JSON.stringify(v)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  };

  it("sourcifyDownFirst_leavesTheTaskSucceeded_isRetried_andEveryContractEndsVerifiedOnBothExplorers", async () => {
    sourcify.state.down = true;
    const res = await api.call(
      "POST",
      "/api/v1/client-onboarding/deploy",
      onboardingBody("acme", actors(node.provider).brand.address),
      auth,
    );
    assert.equal(res.status, 202, JSON.stringify(res.body));
    const { taskId } = res.body.data as { taskId: string };
    const task = await waitForTask(api, taskId, auth);
    assert.equal(task.status, "succeeded", "the program does not wait for its explorers");

    const down = await verificationOf(taskId, (v) =>
      v.contracts.some((c) => c.explorer === "sourcify" && /HTTP 503/.test(c.reason ?? "")),
    );
    assert.equal(down.status, "pending");
    const waiting = down.contracts.find((c) => c.explorer === "sourcify" && c.reason)!;
    assert.match(waiting.reason!, /sourcify did not answer \(the explorer answered HTTP 503\); asking again later/);
    assert.equal(waiting.status, "pending");
    assert.equal(sourcify.verified.size, 0);

    sourcify.state.down = false;
    const v = await verificationOf(taskId, (x) => x.status !== "pending");
    assert.equal(v.status, "verified", JSON.stringify(v, null, 2));
    const names = [...new Set(v.contracts.map((c) => c.contract))];
    // Six release contracts and the program's proxies, each once per explorer.
    assert.ok(names.filter((n) => n.startsWith("release/")).length === 6, names.join());
    assert.equal(v.contracts.length, names.length * 2);
    for (const name of names) {
      const rows = v.contracts.filter((c) => c.contract === name);
      assert.deepEqual(rows.map((c) => c.explorer).sort(), ["etherscan", "sourcify"], name);
      for (const c of rows) {
        assert.equal(c.status, "verified", `${name} on ${c.explorer}`);
        const address = c.address.toLowerCase();
        if (c.explorer === "sourcify") {
          assert.equal(c.url, `${REPO}/31337/${c.address}`);
          assert.ok(sourcify.verified.has(`31337:${address}`), `Sourcify matched ${name} with the chain`);
        } else {
          assert.equal(c.url, `${BROWSER}/address/${c.address}#code`);
          assert.ok(etherscan.verified.has(address), `Etherscan matched ${name} with the chain`);
        }
      }
    }
    assert.ok(
      sourcify.submissions.some((s) => s.address === waiting.address.toLowerCase()),
      "the contract Sourcify turned away was submitted again",
    );
  });
});
