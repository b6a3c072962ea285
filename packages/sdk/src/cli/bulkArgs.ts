import { parseArgs } from "node:util";

/** What `points-bulk` was asked to do (see the package README, "Bulk drops from a terminal"). */
export interface BulkArgs {
  operation: "mint" | "settle" | "expire";
  campaign: string;
  csv: string;
  plan?: string;
  receiver?: string;
  metadata?: string;
  bulkId?: string;
  gasCeiling?: number;
  program?: string;
  from?: string;
  dryRun: boolean;
  apiUrl: string;
  rpcUrl: string;
  confirmations: number;
}

export const USAGE = `usage: points-bulk <mint|settle|expire> --campaign <id or label> --csv <file> --plan <file> [options]

  --campaign <id|label>   the campaign (0x + 64 hex digits, or its label)
  --csv <file>            rows: address,amount[,metadata] (amounts in token units, "." decimal point)
  --plan <file>           where the built plan is kept; if it exists, the drop resumes from it
  --receiver <address>    settle: receiver of every row's SP
  --metadata <text>       metadata of rows without their own
  --bulk-id <id>          the drop's name in every chunk's on-chain tag (default: derived)
  --gas-ceiling <gas>     highest gas limit of one transaction (default 10000000)
  --program <id>          the program (id or Factory address); default: the API key's only one
  --dry-run               print the dry run (totals, headroom, refusals, transactions) and stop
  --from <address>        signer for a --dry-run without POINTS_PRIVATE_KEY
  --api-url <url>         the API (env POINTS_API_URL, default http://127.0.0.1:3000)
  --rpc-url <url>         JSON-RPC endpoint of the program's chain (env RPC_URL, default http://127.0.0.1:8545)
  --confirmations <n>     blocks to wait for per chunk (default 1)

environment: POINTS_API_KEY (required), POINTS_PRIVATE_KEY (the signer; required unless --dry-run --from).
Secrets are read from the environment only and never printed.
exit codes: 0 done, 1 failed (resume with the same --plan), 2 usage, 3 refused (bad rows or the chain would refuse; nothing built)`;

/** A usage mistake: printed with the usage, exit code 2. */
export class UsageError extends Error {}

const OPERATIONS = ["mint", "settle", "expire"] as const;

export function readArgs(argv: string[], env: NodeJS.ProcessEnv): BulkArgs {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        campaign: { type: "string" },
        csv: { type: "string" },
        plan: { type: "string" },
        receiver: { type: "string" },
        metadata: { type: "string" },
        "bulk-id": { type: "string" },
        "gas-ceiling": { type: "string" },
        program: { type: "string" },
        from: { type: "string" },
        "dry-run": { type: "boolean", default: false },
        "api-url": { type: "string" },
        "rpc-url": { type: "string" },
        confirmations: { type: "string" },
        help: { type: "boolean", short: "h", default: false },
      },
    });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const { values: v, positionals } = parsed;
  if (v.help) throw new UsageError("");
  const operation = positionals[0] as BulkArgs["operation"];
  if (positionals.length !== 1 || !OPERATIONS.includes(operation)) {
    throw new UsageError(`the first argument must be one of ${OPERATIONS.join(", ")}`);
  }
  if (!v.campaign) throw new UsageError("--campaign is required");
  if (!v.csv) throw new UsageError("--csv is required");
  if (!v["dry-run"] && !v.plan) throw new UsageError("--plan is required to send (it is what a resume starts from)");
  if (operation === "settle" && !v.receiver) throw new UsageError("settle needs --receiver");
  const int = (name: string, text: string | undefined) => {
    if (text === undefined) return undefined;
    if (!/^[0-9]+$/.test(text)) throw new UsageError(`--${name} must be a whole number`);
    return Number(text);
  };
  return {
    operation,
    campaign: v.campaign,
    csv: v.csv,
    plan: v.plan,
    receiver: v.receiver,
    metadata: v.metadata,
    bulkId: v["bulk-id"],
    gasCeiling: int("gas-ceiling", v["gas-ceiling"]),
    program: v.program,
    from: v.from,
    dryRun: v["dry-run"] ?? false,
    apiUrl: v["api-url"] ?? env.POINTS_API_URL ?? "http://127.0.0.1:3000",
    rpcUrl: v["rpc-url"] ?? env.RPC_URL ?? "http://127.0.0.1:8545",
    confirmations: int("confirmations", v.confirmations) ?? 1,
  };
}
