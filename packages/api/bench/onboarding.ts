/**
 * `pnpm bench:onboarding`: on a local node mining one block per second, in one run:
 * (1) an onboarding deploy over HTTP (POST, then polling until succeeded) against (1') the
 * deployer library alone (deployProgram with a MemoryStore) on the same chain and release,
 * alternating, BENCH_ROUNDS (5) times each: the service's overhead in time and blocks;
 * (2) how many onboarding tasks one executor completes per minute with BENCH_QUEUE (20) queued at once.
 */
import { FetchRequest, JsonRpcProvider, Network, Wallet } from "ethers";
import { MemoryStore, deployProgram } from "@points/deployer";
import { actors, startNode } from "@points/testkit";
import { createService, loadConfig } from "../src/index.js";
import { DbManifestStore } from "../src/onboarding/store.js";
import { deployConfig } from "../src/onboarding/runner.js";
import type { Task } from "../src/onboarding/tasks.js";
import { onboardingBody } from "../test/helpers/onboarding.js";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const QUEUE = Number(process.env.BENCH_QUEUE ?? 20);
const BLOCK_MS = 1000;
const DEV_KEY = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
const log = (s: string) => process.stderr.write(`${s}\n`);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  const node = await startNode();
  await node.provider.send("evm_setAutomine", [false]);
  await node.provider.send("evm_setIntervalMining", [BLOCK_MS]);
  const service = await createService(
    loadConfig({
      PORT: "0",
      DATA_DIR: "memory://",
      LOG_LEVEL: "warn",
      RATE_LIMIT_PER_MINUTE_IP: "100000000",
      RATE_LIMIT_PER_MINUTE_KEY: "100000000",
      DEPLOY_QUOTA_PER_DAY: "100000",
      CHAINS: JSON.stringify([{ chainId: 31337, name: "Hardhat", rpcUrl: node.url, blockTimeMs: BLOCK_MS }]),
    }),
  );
  const url = await service.listen();
  const auth = {
    authorization: `Bearer ${(await service.ctx.keys.create("bench", ["build", "read", "deploy"])).key}`,
    "content-type": "application/json",
  };
  const wallet = actors(node.provider).brand.address;
  const block = () => node.provider.getBlockNumber();

  /** POST, then poll every 100 ms (what a client does) until the task ends. */
  const post = async (brand: string) => {
    const res = await fetch(`${url}/api/v1/client-onboarding/deploy`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify(onboardingBody(brand, wallet)),
    });
    if (res.status !== 202) throw new Error(`POST ${brand}: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { data: { taskId: string } }).data.taskId;
  };
  const poll = async (taskId: string) => {
    for (;;) {
      const res = await fetch(`${url}/api/v1/client-onboarding/tasks/${taskId}`, { headers: auth });
      if (res.status !== 200) throw new Error(`GET task ${taskId}: ${res.status} ${await res.text()}`);
      const { data } = (await res.json()) as { data: { status: string; error: string | null } };
      if (data.status === "succeeded") return;
      if (data.status === "failed") throw new Error(`task ${taskId} failed: ${data.error}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const measure = async (fn: () => Promise<unknown>) => {
    const [t0, b0] = [performance.now(), await block()];
    await fn();
    return { seconds: (performance.now() - t0) / 1000, blocks: (await block()) - b0 };
  };

  try {
    log("warm-up: the first task deploys the release ...");
    await poll(await post("warmup"));
    const release = (await new DbManifestStore(service.ctx.db).getRelease(31337n))!;
    // The library's own signer, set up as the service's (same polling), on the same release.
    const request = new FetchRequest(node.url);
    const provider = new JsonRpcProvider(request, Network.from(31337), { staticNetwork: true, cacheTimeout: -1 });
    provider.pollingInterval = 250;
    const signer = new Wallet(DEV_KEY, provider);
    const library = async (brand: string) => {
      const store = new MemoryStore();
      await store.saveRelease(release);
      const task = { request: onboardingBody(brand, wallet) } as unknown as Task;
      await deployProgram(deployConfig(task), signer, store, { chain: { chainId: 31337n, dev: true } });
    };

    const http: { seconds: number; blocks: number }[] = [];
    const lib: { seconds: number; blocks: number }[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      log(`round ${i + 1}/${ROUNDS}: HTTP, then library ...`);
      http.push(await measure(async () => poll(await post(`http${i}`))));
      lib.push(await measure(() => library(`lib${i}`)));
    }
    provider.destroy();

    log(`queueing ${QUEUE} tasks at once ...`);
    const queued = await measure(async () => {
      const ids = await Promise.all(Array.from({ length: QUEUE }, (_, i) => post(`queue${i}`)));
      // One list request per half second rather than 20 pollers competing with the worker.
      for (;;) {
        const res = await fetch(`${url}/api/v1/client-onboarding/tasks`, { headers: auth });
        const { data } = (await res.json()) as { data: { taskId: string; status: string }[] };
        const ours = data.filter((t) => ids.includes(t.taskId));
        if (ours.some((t) => t.status === "failed")) throw new Error("a queued task failed");
        if (ours.filter((t) => t.status === "succeeded").length === QUEUE) break;
        await new Promise((r) => setTimeout(r, 500));
      }
    });

    const row = (name: string, xs: { seconds: number; blocks: number }[]) =>
      `${name.padEnd(34)} ${xs.map((x) => x.seconds.toFixed(2).padStart(6)).join(" ")}   median ${median(xs.map((x) => x.seconds)).toFixed(2)} s, ${median(xs.map((x) => x.blocks))} blocks`;
    const overhead = median(http.map((x) => x.seconds)) - median(lib.map((x) => x.seconds));
    console.log(`\nLocal Hardhat node, one block every ${BLOCK_MS} ms, release in place, mock collateral`);
    console.log(row("(1)  onboarding over HTTP (s)", http));
    console.log(row("(1') deployer library alone (s)", lib));
    console.log(
      `${overhead < BLOCK_MS / 1000 ? "PASS" : "MISS"}  service overhead ${overhead.toFixed(2)} s (target: under one block, ${BLOCK_MS / 1000} s)`,
    );
    console.log(
      `(2)  ${QUEUE} tasks queued at once: all succeeded in ${queued.seconds.toFixed(1)} s, ${queued.blocks} blocks = ${((QUEUE / queued.seconds) * 60).toFixed(1)} tasks/minute for one executor`,
    );
    console.log(
      JSON.stringify({
        blockMs: BLOCK_MS,
        http,
        library: lib,
        overheadSeconds: overhead,
        queue: { tasks: QUEUE, ...queued },
      }),
    );
  } finally {
    await service.close();
    await node.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
