import assert from "node:assert/strict";
import { startFakeSourcify, type DevNode } from "@points/testkit";
import { sourceTargets, sourcifyClient, submissionOf, type SourceTarget } from "../src/index.js";
import { CHAIN, deployAcme } from "./helpers/fixture.js";

const BROWSER = "https://repo.sourcify.example";

/**
 * sourcifyClient against a local Sourcify v2 server that compiles what it gets. The program's
 * proxies share one artifact: every case but the last compiles ProgramProxy once.
 */
describe("source verification: Sourcify's v2 API", () => {
  let node: DevNode;
  let proxies: SourceTarget[];
  let implementation: SourceTarget;
  let sourcify: Awaited<ReturnType<typeof startFakeSourcify>>;
  // The server compiles in the background (seconds with solc WASM): poll long enough.
  const client = (polls = 9000) => sourcifyClient({ apiUrl: sourcify.apiUrl, browserUrl: BROWSER, pollMs: 100, polls });
  const submit = (t: SourceTarget, polls?: number) => client(polls).verify(submissionOf(t, CHAIN.chainId));

  before(async () => {
    const d = await deployAcme();
    node = d.node;
    const release = (await d.store.getRelease(CHAIN.chainId))!;
    const targets = await sourceTargets(d.program, release, node.provider);
    proxies = targets.filter((t) => t.artifact === "ProgramProxy");
    implementation = targets.find((t) => t.address === release.implementations.points)!;
    sourcify = await startFakeSourcify(node.provider);
  });
  after(async () => {
    await sourcify?.close();
    await node?.stop();
  });

  it("aProxy_isVerified_withTheRepositoryLink_andTheShortCompilerVersion", async function () {
    this.timeout(600_000);
    const [p] = proxies;
    const r = await submit(p!);
    assert.deepEqual(r, { status: "verified", url: `${BROWSER}/${CHAIN.chainId}/${p!.address}` });
    assert.ok(sourcify.verified.has(`${CHAIN.chainId}:${p!.address.toLowerCase()}`));
    const [s] = sourcify.submissions;
    assert.equal(s!.contract, "project/contracts/proxy/ProgramProxy.sol:ProgramProxy");
    assert.equal(s!.compiler, sourcify.solcVersion.replace(".Emscripten.clang", ""));
  });

  it("anAlreadyVerifiedContract_isVerified_withoutANewJob", async function () {
    this.timeout(600_000);
    const [p] = proxies;
    const before = sourcify.submissions.length;
    const r = await submit(p!);
    assert.deepEqual(r, { status: "verified", url: `${BROWSER}/${CHAIN.chainId}/${p!.address}` });
    assert.equal(sourcify.submissions.length, before, "the 409 already_verified is the answer");
  });

  it("aSourceThatDoesNotMatchTheChainsCode_isFailed_withTheReason", async function () {
    this.timeout(600_000);
    // The ProgramProxy source submitted for the Points implementation's address.
    const r = await submit({ ...implementation, artifact: "ProgramProxy", constructorArgs: "" });
    assert.equal(r.status, "failed");
    assert.match(r.message!, /don't match/);
    assert.ok(!sourcify.verified.has(`${CHAIN.chainId}:${implementation.address.toLowerCase()}`));
  });

  it("aServerThatIsDown_isUnreachable_notFailed_andALaterAttemptVerifies", async function () {
    this.timeout(600_000);
    const p = proxies[1]!;
    sourcify.state.down = true;
    const down = await submit(p);
    assert.equal(down.status, "unreachable");
    assert.match(down.message!, /HTTP 503/);
    const closed = sourcifyClient({ apiUrl: "http://127.0.0.1:9", browserUrl: BROWSER });
    assert.equal((await closed.verify(submissionOf(p, CHAIN.chainId))).status, "unreachable");
    sourcify.state.down = false;
    assert.equal((await submit(p)).status, "verified");
  });

  it("aJobThatNeverCompletesWithinThePolls_isUnreachable_notFailed", async function () {
    this.timeout(600_000);
    const p = proxies[2]!;
    sourcify.state.pending = true;
    try {
      const r = await submit(p, 3);
      assert.deepEqual(r, { status: "unreachable", message: "Sourcify kept the verification pending" });
    } finally {
      sourcify.state.pending = false;
    }
    assert.ok(!sourcify.verified.has(`${CHAIN.chainId}:${p.address.toLowerCase()}`));
  });
});
