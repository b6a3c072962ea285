import { randomBytes } from "node:crypto";
import { z } from "zod";
import { isDevChainId } from "@points/contracts/program";
import { SignerEnv, signerConfig } from "./signer.js";
import { Chains, LOCAL_CHAIN, ledgerPollMs, type ChainConfig } from "./chains.js";

export { DEFAULT_ENGINE, ledgerPollMs } from "./chains.js";
export type { ChainConfig, EngineConfig, SourceVerifyConfig } from "./chains.js";

const bool = z
  .enum(["true", "false", "1", "0"])
  .transform((v) => v === "true" || v === "1")
  .optional();

/** A whole number in [min, max]; stricter than Number() (which takes "", "0x10" and "1e3"). */
const whole = (min: number, max: number) =>
  z
    .string()
    .regex(/^[0-9]{1,15}$/, "must be a whole number")
    .transform(Number)
    .pipe(z.number().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`));
const int = (min: number, max: number, fallback: number) => whole(min, max).default(fallback);

const Env = z.object({
  HOST: z.string().default("127.0.0.1"),
  PORT: int(0, 65535, 3000),
  /** JSON array of chains; default: the local Hardhat node the start command launches. */
  CHAINS: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (!v) return [LOCAL_CHAIN];
      let json: unknown;
      try {
        json = JSON.parse(v);
      } catch (e) {
        ctx.addIssue({ code: "custom", message: `must be JSON (an array of chains): ${(e as Error).message}` });
        return z.NEVER;
      }
      const parsed = Chains.safeParse(json);
      if (parsed.success) return parsed.data;
      // One line per problem, with its place in the array (CHAINS.0.rpcUrl: ...).
      for (const issue of parsed.error.issues) {
        ctx.addIssue({ code: "custom", message: issue.message, path: issue.path.map(String) });
      }
      return z.NEVER;
    }),
  /** PostgreSQL when set; otherwise the embedded database in DATA_DIR. */
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\/[^/\s]+/, "must be a postgres:// or postgresql:// URL with a host")
    .refine((v) => URL.canParse(v), "is not a valid URL")
    .optional(),
  DATA_DIR: z.string().default(".data/pglite"),
  /**
   * Redis for the request budgets shared by every instance (packages/api/README.md#scaling-out); unset: the shared
   * PostgreSQL keeps them (the embedded database: this process's memory).
   */
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\/[^/\s]+/, "must be a redis:// or rediss:// URL with a host")
    .refine((v) => URL.canParse(v), "is not a valid URL")
    .optional(),
  /** Put before every key in Redis, so deployments that share one Redis keep apart. */
  REDIS_KEY_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9:_-]{1,64}$/, "must be 1-64 letters, digits, ':', '_' or '-'")
    .default("points:"),
  /**
   * How long a Redis command may take before the limiter lets its request through: a limiter must not hold a
   * request. Raise it where Redis is far away or the machine is busy and exact budgets matter more.
   */
  REDIS_COMMAND_TIMEOUT_MS: int(50, 60_000, 1_000),
  /** Program id or factory address used when a request names none. */
  DEFAULT_PROGRAM: z.string().optional(),
  /** Require an API key on every route, not only role, freeze and studio routes. */
  REQUIRE_API_KEY: bool.default(false),
  RATE_LIMIT_PER_MINUTE_IP: int(1, 1_000_000_000, 600),
  RATE_LIMIT_PER_MINUTE_KEY: int(1, 1_000_000_000, 1200),
  // Bulk requests simulate up to about 35 transactions each: a budget of their own.
  RATE_LIMIT_BULK_PER_MINUTE: int(1, 1_000_000_000, 30),
  /**
   * How many reverse proxies stand in front of the service: the client's IP is read that many
   * hops back in X-Forwarded-For. Only a count: "true" would let any client name its own IP
   * and walk around every per-IP limit. Unset: the socket's address.
   */
  TRUST_PROXY: z
    .string()
    .regex(/^[0-9]{1,2}$/, "must be the number of reverse proxies in front of the service (a hop count)")
    .transform(Number)
    .optional(),
  /**
   * How long API-key checks and program lookups are kept in memory. A key revoked or a program
   * registered by another process takes effect within this time (this process: at once). 0: off.
   */
  DB_CACHE_TTL_MS: int(0, 3_600_000, 2000),
  RPC_TIMEOUT_MS: int(1, 600_000, 10_000),
  /** How long a build route keeps its answer to an Idempotency-Key (replayed byte for byte). */
  IDEMPOTENCY_TTL_HOURS: int(1, 24 * 30, 24),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** Key of the executor that deploys programs (onboarding). Never logged, never stored. */
  EXECUTOR_PRIVATE_KEY: z
    .string()
    .regex(/^0x[0-9a-fA-F]{64}$/, "must be a 32-byte hex private key")
    .optional(),
  /**
   * More executor keys (comma-separated): each its own nonce lane; onboarding tasks are spread
   * over the executor key and these (docs/architecture.md#transaction-engine). Never logged.
   */
  EXECUTOR_PRIVATE_KEYS: z
    .string()
    .regex(/^0x[0-9a-fA-F]{64}(,0x[0-9a-fA-F]{64}){0,15}$/, "must be 1 to 16 comma-separated 32-byte hex private keys")
    .optional(),
  ...SignerEnv,
  /** "inline": the API process runs onboarding tasks; "off": run `points-api worker` separately. */
  WORKER: z.enum(["inline", "off"]).default("inline"),
  TASK_LEASE_MS: int(100, 3_600_000, 30_000),
  WORKER_POLL_MS: int(10, 60_000, 1_000),
  /**
   * On shutdown, how long the background jobs' passes in flight get to end (one bound for every
   * job, not one each); a job whose pass is still running then is named in the log and left behind.
   */
  JOB_DRAIN_MS: int(100, 600_000, 10_000),
  /** Deploy tasks one owner (API key or console account) may create per 24 hours. */
  DEPLOY_QUOTA_PER_DAY: int(1, 1_000_000, 10),
  /** Open (not executed, not replaced) Safe proposals one API key or session may hold per Safe. */
  SAFE_OPEN_PROPOSALS_PER_SAFE: int(1, 10_000, 50),
  /** The most gas one executor transaction may be given; a deploy needing more sends nothing (GAS_CAP). */
  EXECUTOR_MAX_GAS_PER_TX: int(21_000, 1_000_000_000, 12_000_000),
  /** Redemption desk bounds (packages/api/README.md#running-in-production): gas per program per UTC day. */
  DESK_GAS_BUDGET_PER_DAY: int(0, 1_000_000_000, 50_000_000),
  /** The smallest request (SP wei) the automatic desk finalizes; smaller ones wait for a manager or their requester. */
  DESK_MIN_REDEEM_AMOUNT: z
    .string()
    .regex(/^[0-9]{1,30}$/, "must be a whole number of SP wei")
    .default("1000000000000000000"),
  /** A refused or skipped request waits this long, doubling per failure up to DESK_BACKOFF_MAX_MS. */
  DESK_BACKOFF_MIN_MS: int(1_000, 86_400_000, 60_000),
  DESK_BACKOFF_MAX_MS: int(1_000, 86_400_000, 3_600_000),
  /** How long a failed deploy keeps its brand (on its chain) for its owner's retry; then anyone may take it. */
  BRAND_RETRY_WINDOW_SECONDS: int(0, 366 * 86_400, 86_400),
  /** E-mail domains whose console accounts may deploy without a per-account approval (comma-separated). */
  CONSOLE_DEPLOY_DOMAINS: z
    .string()
    .default("")
    .transform((v) =>
      v
        .split(",")
        .map((d) => d.trim().toLowerCase())
        .filter((d) => d !== ""),
    ),
  NODE_ENV: z.string().default("development"),
  /** SMTP server for console sign-in codes (smtp:// or smtps://); required in production. */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/[^/\s]+/, "must be an smtp:// or smtps:// URL with a host")
    .refine((v) => URL.canParse(v), "is not a valid URL")
    .optional(),
  /** Development without SMTP: keep sign-in codes in a mailbox page that answers loopback clients only. */
  DEV_MAILBOX: bool.default(false),
  /** Serve build routes of chains not marked testnet without an API key (a free proxy to the RPC). */
  PUBLIC_MAINNET_BUILDS: bool.default(false),
  /** Sender of the sign-in e-mails. */
  MAIL_FROM: z.string().default("Points console <no-reply@localhost>"),
  /** Public origin of the console (links in e-mails), e.g. https://console.example.com. */
  CONSOLE_ORIGIN: z
    .url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" })
    .transform((v) => new URL(v).origin)
    .optional(),
  /**
   * Where this process's OpenTelemetry spans go, over OTLP/HTTP (e.g.
   * http://collector:4318/v1/traces); unset: tracing is off and no span leaves the process.
   */
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z
    .url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" })
    .optional(),
  /** The service name the spans carry. */
  OTEL_SERVICE_NAME: z.string().min(1).max(100).default("points-api"),
  /** HMAC key for sign-in codes; required in production so every instance agrees. */
  CONSOLE_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  SESSION_TTL_HOURS: int(1, 24 * 366, 168),
  CONSOLE_CODE_TTL_SECONDS: int(1, 86_400, 600),
  CONSOLE_CODE_ATTEMPTS: int(1, 100, 5),
  /** Sign-in codes one e-mail address, and one IP, may request per 15 minutes. */
  CONSOLE_CODES_PER_EMAIL: int(1, 1_000_000, 5),
  CONSOLE_CODES_PER_IP: int(1, 1_000_000, 30),
  /** Wrong codes an address takes before each further guess waits 1 s, 2 s, 4 s... (all networks together). */
  CONSOLE_VERIFY_FREE_FAILURES: int(1, 1_000, 10),
  /** The longest that wait gets: a victim's own fresh code works after at most this long. */
  CONSOLE_VERIFY_BACKOFF_MAX_SECONDS: int(1, 86_400, 300),
  /** Wrong codes one client IP may send per 15 minutes, over every address. */
  CONSOLE_VERIFY_FAILURES_PER_IP: int(1, 1_000_000, 100),
  /** The built console; default: packages/console/dist next to this package. */
  CONSOLE_DIST: z.string().optional(),
  /** "inline": the API process runs the ledger's indexer; "off": run `points-api indexer` separately (or none). */
  LEDGER: z.enum(["inline", "off"]).default("inline"),
  /** Blocks below the head before the ledger indexes a block (reorgs inside it roll back and replay). */
  LEDGER_CONFIRMATIONS: int(0, 10_000, 2),
  /** A reorg deeper than this many blocks halts the indexer (logged LEDGER_REORG_TOO_DEEP) instead of rolling back. */
  LEDGER_MAX_REORG_DEPTH: int(1, 100_000, 64),
  /** Most blocks one eth_getLogs request covers. */
  LEDGER_BLOCK_RANGE: int(1, 100_000, 2000),
  /**
   * How often an idle indexer asks for the head. Unset: a quarter of the fastest chain's
   * blockTimeMs, within 50..1000 ms (250 ms on 1 s blocks, 1 s on 12 s blocks).
   */
  LEDGER_POLL_MS: whole(10, 60_000).optional(),
  LEDGER_LEASE_MS: int(100, 3_600_000, 30_000),
  /** Retries of a failed RPC call (exponential backoff with jitter from LEDGER_RETRY_MIN_MS). */
  LEDGER_RPC_RETRIES: int(0, 100, 6),
  LEDGER_RETRY_MIN_MS: int(1, 60_000, 200),
  /** "inline": this process delivers the ledger's webhooks; "off": another instance does. */
  WEBHOOKS: z.enum(["inline", "off"]).default("inline"),
  /** Lets webhook URLs reach private, loopback and link-local addresses (development only). */
  WEBHOOK_ALLOW_PRIVATE: bool.default(false),
  WEBHOOK_TIMEOUT_MS: int(100, 60_000, 10_000),
  /** First retry wait of a failed delivery; it doubles per attempt, with jitter, up to an hour. */
  WEBHOOK_RETRY_MIN_MS: int(10, 3_600_000, 5_000),
  /** How long a delivery is retried before its subscription is disabled (default a day). */
  WEBHOOK_RETRY_WINDOW_SECONDS: int(1, 604_800, 86_400),
  WEBHOOK_POLL_MS: int(10, 60_000, 250),
  /** How long a subscription stays one dispatcher's without renewal; more than twice WEBHOOK_TIMEOUT_MS. */
  WEBHOOK_LEASE_MS: int(200, 3_600_000, 30_000),
  /** Delivery attempts in flight at once per dispatcher, every subscription together. */
  WEBHOOK_CONCURRENCY: int(1, 1_000, 32),
  /** Delivery attempts in flight at once for one owner (API key or console account). */
  WEBHOOK_CONCURRENCY_PER_OWNER: int(1, 1_000, 4),
  /** The Etherscan v2 API key (one key serves every chain); never logged nor returned. */
  ETHERSCAN_API_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,128}$/, "must be an API key (letters, digits, - and _)")
    .optional(),
  /** First wait before asking an explorer that did not answer again; doubles up to an hour. */
  VERIFY_RETRY_MIN_MS: int(10, 3_600_000, 30_000),
  /** Between an explorer's status checks of one submission. */
  VERIFY_POLL_MS: int(10, 60_000, 2_000),
});

/** Hardhat's account #0: the executor on local dev chains when no key is configured. */
const DEV_EXECUTOR_KEY = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";

export type Config = ReturnType<typeof loadConfig>;

/** Whether a URL names this machine: a remote node could be any chain that merely reports a dev id. */
export function isLoopbackUrl(url: string): boolean {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, "");
  return host === "localhost" || host === "::1" || /^127(\.[0-9]{1,3}){3}$/.test(host);
}

/** The public development key signs only for a dev chain id, on a loopback RPC, outside production. */
const mayUseDevKey = (c: ChainConfig, production: boolean) =>
  !production && isDevChainId(c.chainId) && [c.rpcUrl, ...(c.rpcUrls ?? [])].every(isLoopbackUrl);

/** Validates the environment once, at start; a bad value stops the service with every problem listed. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env) {
  // A variable set to "" (FOO= in an env file) means "not set".
  const given = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = Env.safeParse(given);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".") || "env"}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const e = parsed.data;
  const production = e.NODE_ENV === "production";
  // A fresh random key per boot in development: outstanding codes then die with the process.
  const consoleSecret = e.CONSOLE_SECRET ?? randomBytes(32).toString("hex");
  const refused: string[] = [];
  if (production && !e.CONSOLE_SECRET) {
    refused.push(
      "CONSOLE_SECRET: is required when NODE_ENV=production (every instance must verify the same sign-in codes)",
    );
  }
  if (production && !e.SMTP_URL) {
    refused.push("SMTP_URL: is required when NODE_ENV=production (sign-in codes must reach their owner by e-mail)");
  }
  if (production && e.DEV_MAILBOX) {
    refused.push("DEV_MAILBOX: must be off when NODE_ENV=production");
  }
  const signer = signerConfig(e, production, refused);
  // Keys in a token serve every chain; the public development key only dev chains (mayUseDevKey).
  const devKeyChains = e.CHAINS.filter((c) => signer.backend === "local" && mayUseDevKey(c, production));
  if (signer.backend === "local" && !e.EXECUTOR_PRIVATE_KEY && devKeyChains.length < e.CHAINS.length) {
    const others = e.CHAINS.filter((c) => !devKeyChains.includes(c)).map((c) => c.chainId);
    refused.push(
      `EXECUTOR_PRIVATE_KEY: is required for chain ${others.join(", ")} (the public development key serves only a dev chain id on a loopback RPC outside production)`,
    );
  }
  if (e.WEBHOOK_LEASE_MS <= 2 * e.WEBHOOK_TIMEOUT_MS) {
    // A lease that can expire during one attempt would let a second instance send the same delivery.
    refused.push("WEBHOOK_LEASE_MS: must be more than twice WEBHOOK_TIMEOUT_MS");
  }
  if (e.WEBHOOK_CONCURRENCY_PER_OWNER >= e.WEBHOOK_CONCURRENCY) {
    // One owner's silent receivers could then hold every slot and stall every other tenant.
    refused.push("WEBHOOK_CONCURRENCY_PER_OWNER: must be less than WEBHOOK_CONCURRENCY");
  }
  for (const c of e.CHAINS) {
    if (!c.sourceVerify?.etherscanApiUrl) continue;
    if (!e.ETHERSCAN_API_KEY) {
      refused.push(`ETHERSCAN_API_KEY: is required for chain ${c.chainId} (its sourceVerify.etherscanApiUrl is set)`);
    }
    if (!c.explorerUrl) {
      refused.push(`CHAINS: chain ${c.chainId} needs an explorerUrl for its verified-source links`);
    }
  }
  if (refused.length > 0) throw new Error(`Invalid configuration:\n${refused.map((l) => `  ${l}`).join("\n")}`);
  return {
    host: e.HOST,
    port: e.PORT,
    chains: e.CHAINS,
    databaseUrl: e.DATABASE_URL,
    dataDir: e.DATA_DIR,
    redis: e.REDIS_URL
      ? { url: e.REDIS_URL, keyPrefix: e.REDIS_KEY_PREFIX, commandTimeoutMs: e.REDIS_COMMAND_TIMEOUT_MS }
      : undefined,
    defaultProgram: e.DEFAULT_PROGRAM,
    requireApiKey: e.REQUIRE_API_KEY,
    publicMainnetBuilds: e.PUBLIC_MAINNET_BUILDS,
    rateLimit: {
      perIp: e.RATE_LIMIT_PER_MINUTE_IP,
      perKey: e.RATE_LIMIT_PER_MINUTE_KEY,
      bulk: e.RATE_LIMIT_BULK_PER_MINUTE,
    },
    trustProxy: e.TRUST_PROXY,
    rpcTimeoutMs: e.RPC_TIMEOUT_MS,
    dbCacheTtlMs: e.DB_CACHE_TTL_MS,
    idempotencyTtlMs: e.IDEMPOTENCY_TTL_HOURS * 3_600_000,
    logLevel: e.LOG_LEVEL,
    tracing: { endpoint: e.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, serviceName: e.OTEL_SERVICE_NAME },
    worker: { mode: e.WORKER, leaseMs: e.TASK_LEASE_MS, pollMs: e.WORKER_POLL_MS },
    jobDrainMs: e.JOB_DRAIN_MS,
    ledger: {
      mode: e.LEDGER,
      confirmations: e.LEDGER_CONFIRMATIONS,
      maxReorgDepth: e.LEDGER_MAX_REORG_DEPTH,
      range: e.LEDGER_BLOCK_RANGE,
      pollMs: e.LEDGER_POLL_MS ?? ledgerPollMs(e.CHAINS),
      leaseMs: e.LEDGER_LEASE_MS,
      rpcTimeoutMs: e.RPC_TIMEOUT_MS,
      retry: { retries: e.LEDGER_RPC_RETRIES, minMs: e.LEDGER_RETRY_MIN_MS, maxMs: 30_000 },
    },
    webhooks: {
      mode: e.WEBHOOKS,
      allowPrivate: e.WEBHOOK_ALLOW_PRIVATE,
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
      retryMinMs: e.WEBHOOK_RETRY_MIN_MS,
      retryWindowMs: e.WEBHOOK_RETRY_WINDOW_SECONDS * 1000,
      pollMs: e.WEBHOOK_POLL_MS,
      leaseMs: e.WEBHOOK_LEASE_MS,
      concurrency: e.WEBHOOK_CONCURRENCY,
      ownerConcurrency: e.WEBHOOK_CONCURRENCY_PER_OWNER,
    },
    deploy: {
      quotaPerDay: e.DEPLOY_QUOTA_PER_DAY,
      approvedDomains: e.CONSOLE_DEPLOY_DOMAINS,
      brandRetryWindowSeconds: e.BRAND_RETRY_WINDOW_SECONDS,
      maxGasPerTx: e.EXECUTOR_MAX_GAS_PER_TX,
    },
    safe: { openProposalsPerSafe: e.SAFE_OPEN_PROPOSALS_PER_SAFE },
    desk: {
      gasBudgetPerDay: e.DESK_GAS_BUDGET_PER_DAY,
      minRedeemAmount: e.DESK_MIN_REDEEM_AMOUNT,
      backoffMinMs: e.DESK_BACKOFF_MIN_MS,
      backoffMaxMs: e.DESK_BACKOFF_MAX_MS,
      maxGasPerTx: e.EXECUTOR_MAX_GAS_PER_TX,
    },
    /**
     * The executor key for a chain: the configured one, or Hardhat's dev account on a dev
     * chain. A function, so the key never appears when the configuration is serialised.
     */
    executorKey: (chainId: number): string | undefined =>
      e.EXECUTOR_PRIVATE_KEY ?? (devKeyChains.some((c) => c.chainId === chainId) ? DEV_EXECUTOR_KEY : undefined),
    /**
     * Every executor key of a chain, the executor key first (it holds EXECUTOR_ROLE and the
     * ProgramFactory's admin), then EXECUTOR_PRIVATE_KEYS: one nonce lane each.
     */
    executorKeys: (chainId: number): string[] => {
      const first =
        e.EXECUTOR_PRIVATE_KEY ?? (devKeyChains.some((c) => c.chainId === chainId) ? DEV_EXECUTOR_KEY : undefined);
      if (!first) return [];
      const more = (e.EXECUTOR_PRIVATE_KEYS?.split(",") ?? []).map((k) => k.toLowerCase());
      return [...new Set([first.toLowerCase(), ...more])];
    },
    /** Where the executor keys live: local (the keys above), a PKCS#11 token, AWS KMS or Google Cloud KMS (@points/signers). */
    signer,
    verify: { retryMinMs: e.VERIFY_RETRY_MIN_MS, retryMaxMs: 3_600_000, pollMs: e.VERIFY_POLL_MS },
    /** The explorer API key; a function, so it never appears when the configuration is serialised. */
    explorerKey: (): string | undefined => e.ETHERSCAN_API_KEY,
    production,
    console: {
      smtpUrl: e.SMTP_URL,
      mailFrom: e.MAIL_FROM,
      origin: e.CONSOLE_ORIGIN,
      /** A function, so the key never appears when the configuration is serialised. */
      secret: () => consoleSecret,
      sessionTtlMs: e.SESSION_TTL_HOURS * 3_600_000,
      codeTtlSeconds: e.CONSOLE_CODE_TTL_SECONDS,
      codeAttempts: e.CONSOLE_CODE_ATTEMPTS,
      codesPerEmail: e.CONSOLE_CODES_PER_EMAIL,
      codesPerIp: e.CONSOLE_CODES_PER_IP,
      verifyFreeFailures: e.CONSOLE_VERIFY_FREE_FAILURES,
      verifyBackoffMaxSeconds: e.CONSOLE_VERIFY_BACKOFF_MAX_SECONDS,
      verifyFailuresPerIp: e.CONSOLE_VERIFY_FAILURES_PER_IP,
      /** The dev mailbox exists only when asked for, without SMTP and outside production. */
      devMailbox: e.DEV_MAILBOX && !e.SMTP_URL && !production,
      dist: e.CONSOLE_DIST,
    },
  };
}
