#!/usr/bin/env node
import { readFileSync } from "node:fs";
import { Command } from "commander";
import { loadConfig } from "../core/config/env.js";
import { openDb } from "../core/db/db.js";
import { migrate } from "../core/db/migrations.js";
import { ApiKeys } from "../core/auth/apiKeys.js";
import { DEFAULT_SCOPES, parseScopes } from "../core/auth/scopes.js";
import { ConsoleUsers } from "../core/console/users.js";
import { TaskRepo } from "../core/onboarding/tasks.js";
import { ProgramRegistry } from "../core/registry/programs.js";
import {
  createDeskJob,
  createDispatcher,
  createIndexer,
  createService,
  createVerifyJob,
  createWorker,
  stopJobs,
} from "../service.js";
import { Engines } from "../core/engine/registry.js";
import { programsAfterReorg } from "../core/onboarding/reorgCheck.js";
import { programFromManifest } from "./manifest.js";
import { AssetList, type AssetKind } from "../core/operator/assets.js";
import { OperatorWebhooks } from "../core/operator/webhooks.js";
import { isAddress } from "ethers";
import { detached } from "../core/detached.js";
import { executorCommands } from "./executor.js";
import { SignerError } from "@points/signers";

/** Opens the configured database for a one-off command and closes it after. */
async function withDb<T>(fn: (db: Awaited<ReturnType<typeof openDb>>) => Promise<T>): Promise<T> {
  const db = await openDb(loadConfig());
  try {
    await migrate(db);
    return await fn(db);
  } finally {
    await db.close();
  }
}

const program = new Command("points-api").description("The points platform API service").showHelpAfterError();

/**
 * Runs `stop` (the graceful shutdown: drain, then give the leases back) on SIGINT or SIGTERM, then
 * exits; 1 when the shutdown failed. A second signal kills the process (the handlers run once).
 */
function stopOnSignal(stop: () => Promise<void>): void {
  const once = detached(
    async () => {
      await stop();
      process.exit(0);
    },
    (e) => {
      process.stderr.write(`points-api: shutdown failed: ${(e as Error).message}\n`);
      process.exit(1);
    },
  );
  process.once("SIGINT", once);
  process.once("SIGTERM", once);
}

/**
 * The service without HTTP, its in-process onboarding worker and ledger indexer off, running
 * only the one loop `make` builds, until SIGINT or SIGTERM.
 */
async function runHeadless(
  make: (ctx: Awaited<ReturnType<typeof createService>>["ctx"]) => {
    id: string;
    start(): void;
    stop(drainMs?: number): Promise<void>;
  },
  started: string,
) {
  const config = loadConfig();
  const service = await createService({
    ...config,
    worker: { ...config.worker, mode: "off" },
    ledger: { ...config.ledger, mode: "off" },
    webhooks: { ...config.webhooks, mode: "off" },
  });
  const loop = make(service.ctx);
  loop.start();
  service.ctx.logger.info({ id: loop.id }, started);
  stopOnSignal(async () => {
    await loop.stop(config.jobDrainMs);
    await service.close();
  });
}

program
  .command("serve")
  .description("start the HTTP service (configuration from the environment)")
  .action(async () => {
    const service = await createService(loadConfig());
    const url = await service.listen();
    service.ctx.logger.info({ url }, `listening on ${url}`);
    stopOnSignal(() => service.close());
  });

program
  .command("worker")
  .description("run onboarding tasks only (no HTTP); any number may share one PostgreSQL")
  .action(() =>
    runHeadless((ctx) => {
      // Source verification runs beside the deploys, on the worker's side (docs/deployment.md#source-verification).
      const verifier = createVerifyJob(ctx);
      const engines = new Engines(ctx, programsAfterReorg(ctx));
      const worker = createWorker(ctx, undefined, engines, verifier);
      // The desk runs wherever the executor's lease may be held (docs/deployment.md#redemption-desk).
      const desk = createDeskJob(ctx, engines, worker.id);
      return {
        id: worker.id,
        start: () => (verifier.start(), worker.start(), desk.start()),
        stop: (drainMs?: number) => stopJobs(drainMs ?? ctx.config.jobDrainMs, [desk, worker], [verifier]),
      };
    }, "onboarding worker started"),
  );

program
  .command("indexer")
  .description("run the program ledger's indexer only (no HTTP); instances on one PostgreSQL share chains by lease")
  .action(() => runHeadless(createIndexer, "ledger indexer started"));

program
  .command("webhooks")
  .description("deliver the ledger's webhooks only (no HTTP); instances on one PostgreSQL share subscriptions by lease")
  .action(() => runHeadless(createDispatcher, "webhook dispatcher started"));

const keys = program.command("keys").description("manage API keys (stored hashed; a key is shown once)");
keys
  .command("create")
  .requiredOption("--name <name>", "who the key is for")
  .option("--scopes <list>", "comma-separated: build, read, deploy, admin", DEFAULT_SCOPES.join(","))
  .action(async (o: { name: string; scopes: string }) => {
    const scopes = parseScopes(o.scopes);
    const { key, info } = await withDb((db) => new ApiKeys(db).create(o.name, scopes));
    process.stdout.write(
      `${JSON.stringify({ ...info, key }, null, 2)}\nStore the key now: it cannot be shown again.\n`,
    );
  });
keys.command("revoke <id>").action(async (id: string) => {
  const ok = await withDb((db) => new ApiKeys(db).revoke(id));
  if (!ok) {
    process.stderr.write(`no active key with id ${id}\n`);
    process.exitCode = 1;
  } else process.stdout.write(`revoked ${id}\n`);
});
keys.command("list").action(async () => {
  process.stdout.write(`${JSON.stringify(await withDb((db) => new ApiKeys(db).list()), null, 2)}\n`);
});

const hooks = program
  .command("hooks")
  .description("every tenant's webhook subscriptions: list, hold (a pause the owner cannot lift), release, delete");
hooks
  .command("list")
  .option("--created-by <owner>", "only the webhooks of this API key id, or session:<email>")
  .option("--status <status>", "active, paused or disabled")
  .action(async (o: { createdBy?: string; status?: string }) => {
    const rows = await withDb((db) => new OperatorWebhooks(db).list({ owner: o.createdBy, status: o.status }));
    process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
  });
const noHook = (id: string) => {
  process.stderr.write(`no webhook ${id}\n`);
  process.exitCode = 1;
};
hooks.command("pause <id>").action(async (id: string) => {
  const row = await withDb((db) => new OperatorWebhooks(db).hold(id));
  if (!row) noHook(id);
  else process.stdout.write(`held ${id}: nothing is sent until \`hooks resume ${id}\`\n`);
});
hooks.command("resume <id>").action(async (id: string) => {
  const row = await withDb((db) => new OperatorWebhooks(db).release(id));
  if (!row) noHook(id);
  else if (row === "revoked") {
    process.stderr.write(`webhook ${id} belongs to a revoked API key: it stays disabled\n`);
    process.exitCode = 1;
  } else process.stdout.write(`resumed ${id}\n`);
});
hooks.command("delete <id>").action(async (id: string) => {
  if (!(await withDb((db) => new OperatorWebhooks(db).remove(id)))) noHook(id);
  else process.stdout.write(`deleted ${id}\n`);
});

const accounts = program.command("accounts").description("console accounts and whether they may deploy");
const setApproval = (approved: boolean) => async (email: string) => {
  const ok = await withDb((db) => new ConsoleUsers(db).approveDeploys(email, approved));
  if (!ok) {
    process.stderr.write(`no console account ${email} (it is created at first sign-in)\n`);
    process.exitCode = 1;
  } else process.stdout.write(`${approved ? "approved" : "disapproved"} deploys for ${email.toLowerCase()}\n`);
};
accounts.command("approve <email>").description("let the account deploy programs").action(setApproval(true));
accounts.command("disapprove <email>").description("take the deploy permission back").action(setApproval(false));
accounts.command("list").action(async () => {
  process.stdout.write(`${JSON.stringify(await withDb((db) => new ConsoleUsers(db).list()), null, 2)}\n`);
});

const deploys = program.command("deploys").description("deploys waiting for the operator (chains not marked testnet)");
deploys.command("pending").action(async () => {
  const tasks = await withDb((db) => new TaskRepo(db).awaitingApproval());
  const rows = tasks.map((t) => ({
    id: t.id,
    owner: t.owner,
    brand: t.brand,
    chainId: t.chainId,
    createdAt: t.createdAt,
  }));
  process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
});
deploys.command("approve <taskId>").action(async (id: string) => {
  const task = await withDb((db) => new TaskRepo(db).approve(id));
  process.stdout.write(`approved ${task.id} (${task.brand} on chain ${task.chainId}): queued\n`);
});

program
  .command("brands")
  .description("brand reservations")
  .command("release <brand>")
  .description("free a brand held by a failed task or one awaiting approval (the task is deleted)")
  .option("--chain <chainId>", "only on this chain (default: every chain)")
  .action(async (brand: string, opts: { chain?: string }) => {
    const ids = await withDb((db) => new TaskRepo(db).releaseBrand(brand, { chainId: opts.chain }));
    if (ids.length === 0) {
      process.stderr.write(
        `no failed or unapproved task holds brand ${brand}${opts.chain ? ` on chain ${opts.chain}` : ""}\n`,
      );
      process.exitCode = 1;
    } else process.stdout.write(`released ${brand} (deleted task ${ids.join(", ")})\n`);
  });

const assets = program
  .command("assets")
  .description("collateral assets and oracle feeds deploys may name on a chain that is not a dev chain");
/** The chain must be configured, the kind known and the address well-formed; else one line and exit 2. */
function assetArgs(chainId: string, kind: string, address: string): [string, AssetKind, string] | undefined {
  const problems: string[] = [];
  if (!loadConfig().chains.some((c) => String(c.chainId) === chainId))
    problems.push(`chain ${chainId} is not in CHAINS`);
  if (kind !== "collateral" && kind !== "feed") problems.push(`kind must be collateral or feed, not ${kind}`);
  if (!isAddress(address)) problems.push(`${address} is not an address`);
  if (problems.length === 0) return [chainId, kind as AssetKind, address];
  process.stderr.write(`${problems.join("\n")}\n`);
  process.exitCode = 2;
  return undefined;
}
assets
  .command("add <chainId> <kind> <address>")
  .description("let deploys on the chain name this collateral asset (kind collateral) or oracle feed (kind feed)")
  .requiredOption("--label <label>", "what it is, for people (USDC, ETH/USD)")
  .action(async (chainId: string, kind: string, address: string, o: { label: string }) => {
    const args = assetArgs(chainId, kind, address);
    if (!args) return;
    const row = await withDb((db) => new AssetList(db).add(...args, o.label));
    process.stdout.write(`listed ${row.kind} ${row.address} on chain ${row.chainId}\n`);
  });
assets.command("remove <chainId> <kind> <address>").action(async (chainId: string, kind: string, address: string) => {
  const args = assetArgs(chainId, kind, address);
  if (!args) return;
  if (await withDb((db) => new AssetList(db).remove(...args))) {
    process.stdout.write(`removed ${kind} ${address} from chain ${chainId}\n`);
  } else {
    process.stderr.write(`${kind} ${address} is not on chain ${chainId}'s list\n`);
    process.exitCode = 1;
  }
});
assets
  .command("list")
  .option("--chain <chainId>", "only this chain")
  .action(async (o: { chain?: string }) => {
    process.stdout.write(`${JSON.stringify(await withDb((db) => new AssetList(db).list(o.chain)), null, 2)}\n`);
  });

const programs = program.command("programs").description("the program registry");
programs
  .command("import <manifest>")
  .description("register a program from a deployer manifest (JSON)")
  .action(async (file: string) => {
    const record = programFromManifest(JSON.parse(readFileSync(file, "utf8")));
    const saved = await withDb((db) => new ProgramRegistry(db).insert(record));
    process.stdout.write(`${JSON.stringify(saved, null, 2)}\n`);
  });
programs.command("list").action(async () => {
  process.stdout.write(`${JSON.stringify(await withDb((db) => new ProgramRegistry(db).list()), null, 2)}\n`);
});

executorCommands(program);

program.parseAsync().catch((e: Error) => {
  // A signer's code names the docs/errors.md#executor-signer entry with the fix.
  const code = e instanceof SignerError ? `${e.code}: ` : "";
  process.stderr.write(`points-api: ${code}${e.message}\n`);
  process.exit(1);
});
