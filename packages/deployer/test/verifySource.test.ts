import assert from "node:assert/strict";
import { startFakeEtherscan, type DevNode } from "@points/testkit";
import {
  etherscanClient,
  sourceTargets,
  submissionOf,
  verifySources,
  type ProgramRecord,
  type Release,
} from "../src/index.js";
import { CHAIN, deployAcme } from "./helpers/fixture.js";

const KEY = "test-explorer-key-0123456789";
const BROWSER = "https://explorer.example";

/** Source verification against a local Etherscan-compatible API that compiles what it gets. */
describe("source verification: the release and the program's proxies on an Etherscan-compatible explorer", () => {
  let node: DevNode;
  let program: ProgramRecord;
  let release: Release;
  let explorer: Awaited<ReturnType<typeof startFakeEtherscan>>;
  // The server compiles in the background (seconds per contract with solc WASM): poll long enough.
  const client = () =>
    etherscanClient({ apiUrl: explorer.apiUrl, apiKey: KEY, browserUrl: BROWSER, pollMs: 100, polls: 9000 });

  before(async () => {
    const d = await deployAcme();
    node = d.node;
    program = d.program;
    release = (await d.store.getRelease(CHAIN.chainId))!;
    explorer = await startFakeEtherscan(node.provider, KEY);
  });
  after(async () => {
    await explorer?.close();
    await node?.stop();
  });

  it("targets_areTheSixReleaseContracts_andTheProgramsFiveProxies_withTheirConstructorArguments", async () => {
    const targets = await sourceTargets(program, release, node.provider);
    const proxies = targets.filter((t) => t.artifact === "ProgramProxy");
    assert.equal(proxies.length, Object.keys(program.addresses).length);
    assert.equal(targets.length - proxies.length, Object.keys(release.contracts).length);
    const pf = targets.find((t) => t.address === release.programFactory)!;
    assert.ok(pf.constructorArgs.length > 0, "ProgramFactory has constructor arguments");
    const points = proxies.find((t) => t.address === program.addresses.points)!;
    assert.equal(points.constructorArgs, release.implementations.points.slice(2).toLowerCase().padStart(64, "0"));
  });

  it("submission_isTheContractsPrunedCompilerInput_withTheLongCompilerVersion", async () => {
    const [t] = (await sourceTargets(program, release, node.provider)).filter((x) => x.artifact === "Factory");
    const s = submissionOf(t!, CHAIN.chainId);
    assert.equal(s.contractIdentifier, "project/contracts/factory/Factory.sol:Factory");
    assert.equal(s.compilerVersion, `v${explorer.solcVersion.replace(".Emscripten.clang", "")}`);
    const sources = Object.keys((s.input as { sources: object }).sources);
    assert.ok(sources.includes("project/contracts/factory/FactoryRedemption.sol"));
    assert.ok(!sources.some((n) => n.includes("/mocks/")), "no unrelated sources");
  });

  it("everyContract_isVerified_theExplorerCompiledItToTheDeployedCode_andLinksAreGiven", async function () {
    // solc WASM compiles each contract in turn: about 40 s on a quiet machine, minutes on a loaded one.
    this.timeout(900_000);
    const targets = await sourceTargets(program, release, node.provider);
    const outcomes = await verifySources(targets, CHAIN.chainId, [client()]);
    assert.equal(outcomes.length, targets.length);
    for (const o of outcomes) {
      assert.equal(o.status, "verified", `${o.label}: ${o.message}`);
      assert.equal(o.url, `${BROWSER}/address/${o.address}#code`);
    }
    assert.equal(explorer.submissions.length, targets.length);
    assert.ok(!JSON.stringify(outcomes).includes(KEY), "the API key is never in a result");
  });

  it("aSourceThatDoesNotCompileToTheDeployedCode_isFailed", async () => {
    const [points] = (await sourceTargets(program, release, node.provider)).filter((t) =>
      t.label.endsWith("points proxy"),
    );
    // The Points proxy's address submitted as the Factory's source (on an explorer that does not show it yet).
    explorer.verified.clear();
    const [o] = await verifySources([{ ...points!, artifact: "Factory" }], CHAIN.chainId, [client()]);
    assert.equal(o!.status, "failed");
    assert.match(o!.message!, /Unable to verify/);
  });

  it("aWrongApiKey_isFailed_withoutTheKeyInTheMessage", async () => {
    const [t] = await sourceTargets(program, release, node.provider);
    const wrong = etherscanClient({ apiUrl: explorer.apiUrl, apiKey: "wrong-key", browserUrl: BROWSER, pollMs: 10 });
    const [o] = await verifySources([t!], CHAIN.chainId, [wrong]);
    assert.equal(o!.status, "failed");
    assert.ok(!o!.message!.includes("wrong-key"));
  });

  it("anExplorerThatIsDown_isUnreachable_notFailed_andALaterAttemptVerifies", async () => {
    const [t] = await sourceTargets(program, release, node.provider);
    explorer.state.down = true;
    const [down] = await verifySources([t!], CHAIN.chainId, [client()]);
    assert.equal(down!.status, "unreachable");
    const closed = etherscanClient({ apiUrl: "http://127.0.0.1:9/v2/api", apiKey: KEY, browserUrl: BROWSER });
    assert.equal((await closed.verify(submissionOf(t!, CHAIN.chainId))).status, "unreachable");
    explorer.state.down = false;
    const [up] = await verifySources([t!], CHAIN.chainId, [client()]);
    assert.equal(up!.status, "verified");
  });
});
