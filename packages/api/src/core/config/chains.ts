import { z } from "zod";

/**
 * The chains the service serves, as CHAINS lists them (packages/api/README.md#configuration): their
 * endpoints, the executor's transaction engine and source verification on each.
 */

// Refinements run even when a field failed: only compare values that are wei text.
const isWei = (v: unknown) => typeof v === "string" && /^[0-9]{1,30}$/.test(v);
const wei = (fallback: string) =>
  z
    .string()
    .regex(/^[0-9]{1,30}$/, "must be a whole number of wei, as decimal text")
    .default(fallback);

const EngineConfig = z
  .strictObject({
    /** Fee caps: no transaction (or replacement) offers more per gas unit. */
    maxFeePerGas: wei("500000000000"),
    maxPriorityFeePerGas: wei("5000000000"),
    /** A transaction not mined this many blocks after it was sent is replaced with fees bumped >= 10%. */
    replaceAfterBlocks: z.number().int().min(1).max(1000).default(3),
    /** Blocks on top of a receipt's (its own included) before it counts as final. */
    confirmations: z.number().int().min(1).max(1000).default(1),
    /** Below this executor balance new transactions wait (tasks show EXECUTOR_LOW_BALANCE) until it is funded. */
    minBalance: wei("0"),
    /** Onboarding tasks of the chain run at once (their transactions share blocks). */
    concurrency: z.number().int().min(1).max(512).default(8),
  })
  .refine(
    (e) =>
      !isWei(e.maxPriorityFeePerGas) ||
      !isWei(e.maxFeePerGas) ||
      BigInt(e.maxPriorityFeePerGas) <= BigInt(e.maxFeePerGas),
    {
      message: "maxPriorityFeePerGas must not exceed maxFeePerGas",
      path: ["maxPriorityFeePerGas"],
    },
  );
export type EngineConfig = z.infer<typeof EngineConfig>;

const httpUrl = z.url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" });

/** Where the chain's contracts get their source verified (docs/deployment.md#source-verification). */
const SourceVerifyConfig = z.strictObject({
  /** An Etherscan v2-compatible API (its key: ETHERSCAN_API_KEY); links go to the chain's explorerUrl. */
  etherscanApiUrl: httpUrl.nullable().default(null),
  /** A Sourcify server (https://sourcify.dev/server); no key. */
  sourcifyApiUrl: httpUrl.nullable().default(null),
  /** Where people see a Sourcify-verified contract. */
  sourcifyBrowserUrl: httpUrl.default("https://repo.sourcify.dev"),
});
export type SourceVerifyConfig = z.infer<typeof SourceVerifyConfig>;

const Chain = z.strictObject({
  chainId: z.number().int().positive(),
  name: z.string().min(1),
  rpcUrl: z.url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" }),
  explorerUrl: z
    .url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" })
    .nullable()
    .default(null),
  testnet: z.boolean().default(true),
  /** Expected block time: fee data and the latest block are cached this long. */
  blockTimeMs: z.number().int().positive().default(1000),
  /**
   * Whether the ledger may trust the node's logs blooms: an idle indexer then skips eth_getLogs for
   * a block whose bloom shows no followed contract (packages/api/README.md#the-indexer). false for a
   * node that leaves logs out of its blooms.
   */
  logsBloom: z.boolean().default(true),
  /** More endpoints of the chain, tried in order when the ones before fail (docs/architecture.md#transaction-engine). */
  rpcUrls: z
    .array(z.url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" }))
    .max(8)
    .default([]),
  /** How often every endpoint is asked its chain id again (docs/architecture.md#nodes-and-networks). */
  chainIdCheckMs: z.number().int().min(100).max(3_600_000).default(10_000),
  /** The executor's transaction engine on this chain (docs/architecture.md#transaction-engine). */
  engine: EngineConfig.prefault({}),
  /** Source verification on explorers; none configured: the stage is skipped. */
  sourceVerify: SourceVerifyConfig.prefault({}),
});
/** A chain as configured; the engine settings are optional for chains built in code (tests, tools). */
export type ChainConfig = Omit<
  z.infer<typeof Chain>,
  "rpcUrls" | "engine" | "sourceVerify" | "chainIdCheckMs" | "logsBloom"
> &
  Partial<Pick<z.infer<typeof Chain>, "rpcUrls" | "engine" | "sourceVerify" | "chainIdCheckMs" | "logsBloom">>;

/** The engine settings a chain gets when it names none. */
export const DEFAULT_ENGINE: EngineConfig = EngineConfig.parse({});

export const LOCAL_CHAIN: ChainConfig = {
  chainId: 31337,
  name: "Local Hardhat",
  rpcUrl: "http://127.0.0.1:8545",
  explorerUrl: null,
  testnet: true,
  blockTimeMs: 1000,
  rpcUrls: [],
  engine: DEFAULT_ENGINE,
};

/** A few looks at the head per block of the fastest chain: an event reaches the ledger within a
 * quarter block of its confirmation, and slow chains are not asked more than once a second. */
export const ledgerPollMs = (chains: { blockTimeMs: number }[]) =>
  Math.max(50, Math.min(1000, Math.floor(Math.min(...chains.map((c) => c.blockTimeMs), 4000) / 4)));

/** The CHAINS variable: at least one chain, each chainId once. */
export const Chains = z
  .array(Chain)
  .min(1, "must list at least one chain")
  .refine((cs) => new Set(cs.map((c) => c.chainId)).size === cs.length, "lists a chainId twice");
