import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import type { Logger } from "pino";
import type { Config } from "./core/config/env.js";
import type { Ctx } from "./core/context.js";
import { openDb } from "./core/db/db.js";
import { migrate } from "./core/db/migrations.js";
import { ProgramRegistry } from "./core/registry/programs.js";
import { ApiKeys } from "./core/auth/apiKeys.js";
import { Chains } from "./core/chain/client.js";
import { assertChainId } from "./core/chain/rpc.js";
import { isRpcUnreachable } from "@points/contracts/program";
import { createApp } from "./server/http/app.js";
import { startTracing } from "./core/tracing/sdk.js";
import { createLogger } from "./server/http/logger.js";
import { handlers } from "./server/handlers/index.js";
import { TaskRepo } from "./core/onboarding/tasks.js";
import { Worker } from "./workers/onboarding/worker.js";
import { RedemptionDeskJob } from "./workers/desk/job.js";
import { SourceVerifyJob } from "./workers/verify/job.js";
import { engineSender } from "./workers/desk/sender.js";
import { ExecutorLeaseHold, leasedSender } from "./workers/desk/lease.js";
import { Engines } from "./core/engine/registry.js";
import { programsAfterReorg } from "./core/onboarding/reorgCheck.js";
import { createRunner, type StoreFactory } from "./workers/onboarding/runner.js";
import { createMailer } from "./core/console/mailer.js";
import { LoginCodes } from "./core/console/codes.js";
import { Sessions } from "./core/console/sessions.js";
import { ConsoleUsers } from "./core/console/users.js";
import { LedgerIndexer } from "./workers/ledger/indexer.js";
import { WebhookDispatcher } from "./workers/webhooks/dispatcher.js";
import { ExecutorSigners, type SignerSeams } from "./core/signer/executors.js";
import { openRedis } from "./core/limits/redis.js";

/** How long in-flight requests and running tasks get to finish on shutdown (the worker's default drain). */
const SHUTDOWN_DRAIN_MS = 5_000;
/**
 * How long an idle keep-alive connection stays open. Longer than any client's or load balancer's
 * own idle timeout (undici 4 s, AWS ALB 60 s), so the client side always closes first: a server
 * that closed first (Node's default is 5 s) races a client reusing the socket, which then fails
 * with a reset ("fetch failed", a 502 at the balancer). Headers must come within a bound above it.
 */
const KEEP_ALIVE_TIMEOUT_MS = 65_000;

export type Service = Awaited<ReturnType<typeof createService>>;

export interface ServiceOptions {
  logger?: Logger;
  /** The deployer's store of each task attempt of the inline worker (tests inject failures). */
  storeFor?: StoreFactory;
  /** What the executor signer calls (tests make a token answer slowly). */
  signerSeams?: SignerSeams;
  /** An archive an in-memory database starts from instead of an empty one (tests: `memoryDbTemplate()`). */
  memoryDbSeed?: Blob;
}

/** Opens the database (migrating it), the chains and the HTTP app. Nothing listens yet. */
export async function createService(config: Config, opts: ServiceOptions = {}) {
  const logger = opts.logger ?? createLogger(config.logLevel);
  // The keys first: a token that refuses or hangs stops the start before anything else opens.
  const signers = await ExecutorSigners.open(config, logger, opts.signerSeams);
  // Then Redis, when it holds the request budgets: one that does not answer stops the start too.
  const redis = config.redis
    ? await openRedis(config.redis, logger).catch((e) => {
        signers.close();
        throw e;
      })
    : undefined;
  const db = await openDb(config, opts.memoryDbSeed).catch((e) => {
    signers.close();
    redis?.disconnect();
    throw e;
  });
  await migrate(db);
  const mailer = await createMailer(config, db, logger);
  const ctx: Ctx = {
    config,
    db,
    programs: new ProgramRegistry(db, config.defaultProgram, config.dbCacheTtlMs),
    keys: new ApiKeys(db, config.dbCacheTtlMs),
    chains: new Chains(config.chains, config.rpcTimeoutMs),
    logger,
    tasks: new TaskRepo(db, config.deploy.brandRetryWindowSeconds),
    pokeWorker: () => worker?.poke(),
    pokeWebhooks: () => webhooks?.wake(),
    console: {
      codes: new LoginCodes(db, config.console, mailer),
      sessions: new Sessions(db, config.console.sessionTtlMs),
      users: new ConsoleUsers(db),
      mailer,
    },
    signers,
    ...(redis && { redis }),
  };
  try {
    await checkChainIds(ctx);
  } catch (e) {
    ctx.chains.destroy();
    mailer.close();
    signers.close();
    redis?.disconnect();
    await db.close();
    throw e;
  }
  // Spans leave the process only when an OTLP endpoint is configured (README.md#traces).
  const stopTracing = startTracing(config.tracing);
  // One engine per chain owns the executor's nonces; the worker and the desk both send through it.
  const engines = config.worker.mode === "inline" ? new Engines(ctx, programsAfterReorg(ctx)) : undefined;
  // Source verification runs where the worker does, alongside its deploys (docs/deployment.md#source-verification).
  const verifier = engines ? createVerifyJob(ctx) : undefined;
  verifier?.start();
  const worker = engines ? createWorker(ctx, opts.storeFor, engines, verifier) : undefined;
  worker?.start();
  // The desk sends with the executor, so it runs where the onboarding worker does, and acts on
  // a chain only while this process holds that chain's executor lease.
  const desk = engines && worker ? createDeskJob(ctx, engines, worker.id) : undefined;
  desk?.start();
  const ledger = config.ledger.mode === "inline" ? createIndexer(ctx) : undefined;
  ledger?.start();
  const webhooks = config.webhooks.mode === "inline" ? createDispatcher(ctx) : undefined;
  // In one process the dispatcher hears the ledger's commits (docs/architecture.md#the-api-in-three-layers)
  // and sends a range's events as soon as it is indexed, not at its next poll.
  if (ledger && webhooks) ledger.store.subscribe(webhooks.onLedgerEvent);
  webhooks?.start();
  const app = createApp(ctx, handlers);
  let server: Server | undefined;
  return {
    ctx,
    app,
    /** Listens on the configured host and port (0: any free port); resolves with the base URL. */
    async listen(): Promise<string> {
      server = await new Promise<Server>((resolve, reject) => {
        // Express 5 calls back with the listen error too (a busy port): the server then has no address.
        const s = app.listen(config.port, config.host, (err?: Error) =>
          err ? reject(listenError(err, config)) : resolve(s),
        );
        s.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
        s.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1_000;
      });
      const { port } = server.address() as AddressInfo;
      return `http://${config.host}:${port}`;
    },
    worker,
    ledger,
    desk,
    webhooks,
    verifier,
    /**
     * Graceful shutdown (SIGINT/SIGTERM): stops taking new work (the listener closes at once and
     * no loop claims again), lets the jobs' passes in flight end within JOB_DRAIN_MS (a job still
     * in its pass then is named in the log and left behind), in-flight requests and tasks finish
     * within the worker's drain, then gives this instance's leases back (executor, tasks, ledger
     * chains, webhook subscriptions) so another instance takes over at once rather than at their
     * expiry.
     */
    async close() {
      const http = server ? stopListening(server, SHUTDOWN_DRAIN_MS) : undefined;
      // The desk sends through the worker's engines, which the worker's stop ends: the desk first.
      await stopJobs(config.jobDrainMs, [desk, worker], [verifier], [webhooks], [ledger]);
      await http;
      ctx.chains.destroy();
      mailer.close();
      signers.close();
      await redis?.quit().catch(() => redis.disconnect());
      await db.close();
      await stopTracing().catch((e) => logger.warn({ err: e }, "traces not flushed at shutdown"));
    },
  };
}

/**
 * Refuses to start when a chain's RPC answers for another chain. A node that does not answer
 * yet is left to the check before each deploy (a restarting node must not stop the service).
 */
export async function checkChainIds(ctx: Ctx): Promise<void> {
  for (const chain of ctx.config.chains) {
    const client = ctx.chains.get(chain.chainId);
    try {
      await assertChainId(client.provider, chain);
    } catch (e) {
      if (!isRpcUnreachable(e)) throw e;
      ctx.logger.warn(
        { chainId: chain.chainId },
        "chain did not answer at start: its id is checked before each deploy",
      );
    }
  }
}

/** An onboarding worker over every configured chain, sharing the service's database. */
export function createWorker(
  ctx: Ctx,
  storeFor?: StoreFactory,
  engines = new Engines(ctx, programsAfterReorg(ctx)),
  verifier?: SourceVerifyJob,
): Worker {
  // The worker's transaction engines: its tasks send through them (src/engine/).
  return new Worker(
    ctx.tasks,
    createRunner(ctx, storeFor, engines, () => verifier?.poke()),
    ctx.logger.child({ component: "onboarding-worker" }),
    {
      chainIds: ctx.config.chains.map((c) => String(c.chainId)),
      leaseMs: ctx.config.worker.leaseMs,
      pollMs: ctx.config.worker.pollMs,
      drainMs: SHUTDOWN_DRAIN_MS,
      concurrency: (chainId) => engines.concurrency(chainId),
      onStopping: () => engines.halt(),
      onStop: () => engines.stop(),
    },
  );
}

/** The source verification job over every configured chain (docs/deployment.md#source-verification). */
export function createVerifyJob(ctx: Ctx): SourceVerifyJob {
  return new SourceVerifyJob(ctx, ctx.logger.child({ component: "source-verify" }), {
    chainIds: ctx.config.chains.map((c) => String(c.chainId)),
    // Looking for due verifications is the worker's kind of poll; VERIFY_POLL_MS paces the status
    // checks of one submission at an explorer (core/verify/explorers.ts).
    pollMs: ctx.config.worker.pollMs,
    batch: 16,
    leaseMs: 10 * 60_000,
    retryMinMs: ctx.config.verify.retryMinMs,
    retryMaxMs: ctx.config.verify.retryMaxMs,
  });
}

/** A background job as shutdown sees it: `drainMs` bounds the wait for its pass in flight. */
export interface StoppableJob {
  stop(drainMs?: number): Promise<void>;
}

/**
 * Stops background jobs under one bound, `drainMs` (JOB_DRAIN_MS) for them all rather than one
 * each: the groups at once, the jobs of a group in order, each job's pass in flight given what
 * is left of the bound.
 */
export async function stopJobs(drainMs: number, ...groups: (StoppableJob | undefined)[][]): Promise<void> {
  const deadline = Date.now() + drainMs;
  const left = () => Math.max(0, deadline - Date.now());
  await Promise.all(
    groups.map(async (jobs) => {
      for (const job of jobs) await job?.stop(left());
    }),
  );
}

/** The redemption desk: its job and its hold on the executor lease, started and stopped together. */
export interface DeskRunner {
  readonly job: RedemptionDeskJob;
  readonly lease: ExecutorLeaseHold;
  start(): void;
  stop(drainMs?: number): Promise<void>;
}

/**
 * The redemption desk's job, sending through the executor (docs/deployment.md#redemption-desk)
 * on the chains whose executor lease `owner` (the process's onboarding worker) holds.
 */
export function createDeskJob(ctx: Ctx, engines: Engines, owner: string): DeskRunner {
  const fastest = Math.min(...ctx.config.chains.map((c) => c.blockTimeMs));
  const logger = ctx.logger.child({ component: "redemption-desk" });
  const chainIds = ctx.config.chains.map((c) => String(c.chainId));
  const lease = new ExecutorLeaseHold(
    ctx.tasks,
    owner,
    chainIds,
    ctx.config.worker.leaseMs,
    logger,
    ctx.config.worker.pollMs,
  );
  const job = new RedemptionDeskJob(ctx, leasedSender(engineSender(ctx, engines), lease), logger, {
    batchSize: 50,
    // A few looks per block, so a request is finalized in the block after its readyAt.
    pollMs: Math.max(50, Math.min(1000, Math.floor(fastest / 4))),
    idlePollMs: ctx.config.worker.pollMs,
    leaseMs: ctx.config.worker.leaseMs,
  });
  return {
    job,
    lease,
    start: () => void lease.start().then(() => job.start()),
    async stop(drainMs?: number) {
      await job.stop(drainMs);
      await lease.stop();
    },
  };
}

/** The ledger's webhook dispatcher, sharing the service's database. */
export function createDispatcher(ctx: Ctx): WebhookDispatcher {
  return new WebhookDispatcher(ctx.db, ctx.logger.child({ component: "webhooks" }), ctx.config.webhooks);
}

/** The ledger's indexer over every configured chain, sharing the service's database. */
export function createIndexer(ctx: Ctx): LedgerIndexer {
  return new LedgerIndexer(ctx.db, ctx.config.chains, ctx.logger.child({ component: "ledger" }), ctx.config.ledger);
}

/** Stops accepting connections now; requests still running after `drainMs` are cut off. */
function stopListening(server: Server, drainMs: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const cut = setTimeout(() => server.closeAllConnections(), drainMs);
    server.close(() => {
      clearTimeout(cut);
      resolve();
    });
    // Idle keep-alive connections would otherwise hold the close until they time out.
    server.closeIdleConnections();
  });
}

/** A listen failure in words: a busy or forbidden port names itself and the setting to change. */
function listenError(err: NodeJS.ErrnoException, config: { host: string; port: number }): Error {
  const where = `${config.host}:${config.port}`;
  if (err.code === "EADDRINUSE") {
    return new Error(
      `port ${config.port} on ${config.host} is already in use (another points-api running?): stop it or set PORT`,
      { cause: err },
    );
  }
  if (err.code === "EACCES")
    return new Error(`no permission to listen on ${where}: set PORT above 1023`, { cause: err });
  if (err.code === "EADDRNOTAVAIL")
    return new Error(`${config.host} is not an address of this machine: fix HOST`, { cause: err });
  return err;
}
