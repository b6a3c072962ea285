/**
 * `pnpm bench:onboarding`: on a local node mining one block per second, in one run:
 * (1) an onboarding deploy over HTTP (POST, then polling until succeeded) against (1') the
 * deployer library alone (deployProgram with a MemoryStore) on the same chain and release,
 * alternating, BENCH_ROUNDS (5) times each: the service's overhead in time and blocks;
 * (2) how many onboarding tasks one executor key completes per minute with BENCH_QUEUE (200)
 * queued at once, through the transaction engine running BENCH_CONCURRENCY (64) tasks side by
 * side (target: >= 300 programs/min), how many programs each block carried, and the CPU seconds
 * per program of this process (it runs the service) and of the node;
 * (3) source verification on (BENCH_VERIFY=0 turns it off): every program's proxies and release
 * contracts verified on a local Etherscan-style server that compiles with solc WASM and compares
 * with the chain's code; the job runs alongside the deploys, and the bench reports how many
 * contracts were verified by the time the last task succeeded and when the last one was.
 */
import { cpus, loadavg } from "node:os";
import { Contract, FetchRequest, JsonRpcProvider, Network, Wallet } from "ethers";
import { INTERFACES } from "@points/contracts/program/abi";
import { MemoryStore, deployProgram } from "@points/deployer";
import { actors, startFakeEtherscan, startNode } from "@points/testkit";
import { createService, loadConfig } from "../src/index.js";
import { DbManifestStore } from "../src/core/onboarding/store.js";
import { deployConfig } from "../src/workers/onboarding/runner.js";
import type { Task } from "../src/core/onboarding/tasks.js";
import { onboardingBody } from "../test/helpers/onboarding.js";
import { groupCpuSeconds, ownCpuSeconds } from "./helpers/cpu.js";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const QUEUE = Number(process.env.BENCH_QUEUE ?? 200);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 64);
const TARGET_PER_MINUTE = 300;
const BLOCK_MS = 1000;
const VERIFY = process.env.BENCH_VERIFY !== "0";
const EXPLORER_KEY = "bench-explorer-key";
const DEV_KEY = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
const log = (s: string) => process.stderr.write(`${s}\n`);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  const node = await startNode();
  await node.setAutomine(false);
  await node.provider.send("evm_setIntervalMining", [BLOCK_MS]);
  const explorer = VERIFY ? await startFakeEtherscan(node.provider, EXPLORER_KEY) : undefined;
  const service = await createService(
    loadConfig({
      PORT: "0",
      DATA_DIR: "memory://",
      LOG_LEVEL: "warn",
      RATE_LIMIT_PER_MINUTE_IP: "100000000",
      RATE_LIMIT_PER_MINUTE_KEY: "100000000",
      DEPLOY_QUOTA_PER_DAY: "100000",
      CHAINS: JSON.stringify([
        {
          chainId: 31337,
          name: "Hardhat",
          rpcUrl: node.url,
          blockTimeMs: BLOCK_MS,
          engine: { concurrency: CONCURRENCY },
          ...(explorer
            ? { explorerUrl: "https://explorer.example", sourceVerify: { etherscanApiUrl: explorer.apiUrl } }
            : {}),
        },
      ]),
      ...(explorer ? { ETHERSCAN_API_KEY: EXPLORER_KEY, VERIFY_POLL_MS: "250", VERIFY_RETRY_MIN_MS: "1000" } : {}),
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

    log(`queueing ${QUEUE} tasks at once (${CONCURRENCY} side by side) ...`);
    const firstBlock = (await block()) + 1;
    const cpu0 = { own: ownCpuSeconds(), node: groupCpuSeconds(node.pid) };
    const queued = await measure(async () => {
      const ids: string[] = [];
      for (let i = 0; i < QUEUE; i += 50) {
        ids.push(
          ...(await Promise.all(Array.from({ length: Math.min(50, QUEUE - i) }, (_, j) => post(`queue${i + j}`)))),
        );
      }
      // The database says how far the queue is (the list route would compete with the worker for the CPU).
      for (;;) {
        const rows = await service.ctx.db.query<{ status: string; n: string }>(
          "SELECT status, count(*) AS n FROM onboarding_tasks WHERE id = ANY($1) GROUP BY status",
          [ids],
        );
        const count = (s: string) => Number(rows.find((r) => r.status === s)?.n ?? 0);
        if (count("failed") > 0) throw new Error(`${count("failed")} queued task(s) failed`);
        if (count("succeeded") === QUEUE) break;
        await new Promise((r) => setTimeout(r, 250));
      }
    });
    // This process runs the whole service (HTTP, worker, engine, verifier) and, with verification
    // on, the fake explorer's solc compiles: BENCH_VERIFY=0 leaves the service alone.
    const cpu = {
      servicePerProgram: (ownCpuSeconds() - cpu0.own) / QUEUE,
      nodePerProgram: (groupCpuSeconds(node.pid) - cpu0.node) / QUEUE,
      loadAverage: loadavg()[0],
    };
    const perBlock = await programsPerBlock(node.provider, release.programFactory, firstBlock, await block());
    const verification = explorer ? await verifiedAll(service) : null;

    const row = (name: string, xs: { seconds: number; blocks: number }[]) =>
      `${name.padEnd(34)} ${xs.map((x) => x.seconds.toFixed(2).padStart(6)).join(" ")}   median ${median(xs.map((x) => x.seconds)).toFixed(2)} s, ${median(xs.map((x) => x.blocks))} blocks`;
    const overhead = median(http.map((x) => x.seconds)) - median(lib.map((x) => x.seconds));
    console.log(`\nLocal Hardhat node, one block every ${BLOCK_MS} ms, release in place, mock collateral`);
    console.log(row("(1)  onboarding over HTTP (s)", http));
    console.log(row("(1') deployer library alone (s)", lib));
    console.log(
      `${overhead < BLOCK_MS / 1000 ? "PASS" : "MISS"}  service overhead ${overhead.toFixed(2)} s (target: under one block, ${BLOCK_MS / 1000} s)`,
    );
    const rate = (QUEUE / queued.seconds) * 60;
    console.log(
      `(2)  ${QUEUE} tasks queued at once: all succeeded in ${queued.seconds.toFixed(1)} s, ${queued.blocks} blocks = ${rate.toFixed(1)} programs/minute for one executor key`,
    );
    console.log(
      `${rate >= TARGET_PER_MINUTE ? "PASS" : "MISS"}  ${rate.toFixed(1)} programs/minute (target: >= ${TARGET_PER_MINUTE})`,
    );
    console.log(
      `     CPU per program: ${cpu.servicePerProgram.toFixed(3)} s in the service's process${VERIFY ? " (with the fake explorer's compiles; BENCH_VERIFY=0 leaves them out)" : ""}, ${cpu.nodePerProgram.toFixed(3)} s in the node; load average ${cpu.loadAverage.toFixed(2)} on ${cpus().length} cores`,
    );
    console.log(
      `     programs per block (blocks that carried one): median ${median(perBlock)}, max ${Math.max(...perBlock)}, over ${perBlock.length} blocks; histogram ${JSON.stringify(histogram(perBlock))}`,
    );
    if (verification) {
      console.log(
        `(3)  source verification alongside the deploys: ${verification.verifiedAtLastTask} of ${verification.contracts} contract verifications done when the last task succeeded; all done ${verification.secondsAfterLastTask.toFixed(1)} s after it`,
      );
      console.log(
        `${verification.allVerified ? "PASS" : "MISS"}  ${verification.programsVerified} of ${verification.programs} programs verified (every proxy and release contract)`,
      );
    }
    console.log(
      JSON.stringify({
        blockMs: BLOCK_MS,
        http,
        library: lib,
        overheadSeconds: overhead,
        queue: {
          tasks: QUEUE,
          concurrency: CONCURRENCY,
          ...queued,
          programsPerMinute: rate,
          programsPerBlock: perBlock,
          cpu,
        },
        verification,
      }),
    );
  } finally {
    await service.close();
    await explorer?.close();
    await node.stop();
  }
}

type Service = Awaited<ReturnType<typeof createService>>;

/** Waits until no verification is pending (up to 15 min); what was done when the queue ended, and when all was. */
async function verifiedAll(service: Service) {
  const db = service.ctx.db;
  const counts = async () =>
    (
      await db.query<{ status: string; n: string }>(
        "SELECT status, count(*) AS n FROM source_verifications GROUP BY status",
      )
    ).reduce<Record<string, number>>((m, r) => ({ ...m, [r.status]: Number(r.n) }), {});
  const atLastTask = await counts();
  const t0 = performance.now();
  let now = atLastTask;
  while ((now.pending ?? 0) > 0 && performance.now() - t0 < 900_000) {
    await new Promise((r) => setTimeout(r, 500));
    now = await counts();
  }
  const programs = await db.query<{ id: string }>("SELECT id FROM programs");
  const verified = await db.query<{ program_id: string }>(
    `SELECT t.program_id FROM source_verification_targets t
     JOIN source_verifications v ON v.chain_id = t.chain_id AND v.address = t.address
     GROUP BY t.program_id HAVING bool_and(v.status = 'verified') AND count(*) >= 5`,
  );
  return {
    contracts: Object.values(now).reduce((a, b) => a + b, 0),
    verifiedAtLastTask: atLastTask.verified ?? 0,
    secondsAfterLastTask: (performance.now() - t0) / 1000,
    failed: now.failed ?? 0,
    programs: programs.length,
    programsVerified: verified.length,
    allVerified: verified.length === programs.length && !now.failed && !now.pending,
  };
}

/** How many ProgramDeployed events each block of [from, to] holds (blocks with none left out). */
async function programsPerBlock(provider: JsonRpcProvider, programFactory: string, from: number, to: number) {
  const pf = new Contract(programFactory, INTERFACES.programFactory, provider);
  const events = await pf.queryFilter(pf.filters.ProgramDeployed(), from, to);
  const byBlock = new Map<number, number>();
  for (const e of events) byBlock.set(e.blockNumber, (byBlock.get(e.blockNumber) ?? 0) + 1);
  return [...byBlock.values()];
}

/** { programs in a block: how many blocks } */
function histogram(xs: number[]): Record<number, number> {
  const h: Record<number, number> = {};
  for (const x of xs) h[x] = (h[x] ?? 0) + 1;
  return h;
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
