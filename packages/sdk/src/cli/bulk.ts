#!/usr/bin/env node
/**
 * points-bulk: a CSV drop through the API's bulk routes, sent chunk by chunk with the SDK's
 * resume (docs/rules.md#bulk-requests). The built plan is written to --plan before the first
 * signature; run the same command again after a failure and it resumes from that file, skipping
 * the chunks already on chain, so nothing is issued twice.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { JsonRpcProvider, Wallet, getAddress } from "ethers";
import { createClient } from "../client.js";
import { PointsApiError } from "../errors.js";
import type { BulkPlan } from "../bulk.js";
import { readArgs, USAGE, UsageError, type BulkArgs } from "./bulkArgs.js";
import { planLines, progressLine } from "./bulkOutput.js";

const out = (line: string) => process.stdout.write(line + "\n");
const err = (line: string) => process.stderr.write(line + "\n");

/** Exit codes (also in the usage text). */
const EXIT = { done: 0, failed: 1, usage: 2, refused: 3 } as const;
/** Answers of a build: the request as it is will not be built, so running it again is no use. */
const REFUSED = new Set(["INVALID_ROWS", "WOULD_REVERT", "MISSING_ROLE", "INVALID_INPUT", "NOT_FOUND", "CONFLICT"]);

async function run(args: BulkArgs, env: NodeJS.ProcessEnv): Promise<number> {
  const apiKey = env.POINTS_API_KEY;
  if (!apiKey) throw new UsageError("POINTS_API_KEY is not set");
  const key = env.POINTS_PRIVATE_KEY;
  if (!key && !(args.dryRun && args.from)) throw new UsageError("POINTS_PRIVATE_KEY is not set (or --dry-run --from)");
  const provider = new JsonRpcProvider(args.rpcUrl, undefined, { staticNetwork: true, cacheTimeout: -1 });
  const signer = key ? new Wallet(key, provider) : undefined;
  const from = signer ? signer.address : getAddress(args.from!);
  const client = createClient({ baseUrl: args.apiUrl, apiKey, program: args.program, timeoutMs: 120_000 });

  let plan: BulkPlan;
  if (args.plan && existsSync(args.plan) && !args.dryRun) {
    plan = JSON.parse(readFileSync(args.plan, "utf8")) as BulkPlan;
    if (plan.operation !== args.operation) {
      throw new UsageError(`${args.plan} holds a ${plan.operation} drop, not ${args.operation}: use another --plan`);
    }
    out(`resuming ${plan.operation} ${plan.bulkId} from ${args.plan} (${plan.chunkCount} transactions)`);
  } else {
    const body = {
      campaignId: args.campaign,
      recipients: readFileSync(args.csv, "utf8"),
      from,
      dryRun: args.dryRun,
      ...(args.metadata !== undefined && { metadata: args.metadata }),
      ...(args.bulkId !== undefined && { bulkId: args.bulkId }),
      ...(args.gasCeiling !== undefined && { gasCeiling: args.gasCeiling }),
    };
    plan =
      args.operation === "settle"
        ? await client.bulk.settle({ ...body, settlementReceiver: args.receiver! })
        : await client.bulk[args.operation](body);
    planLines(plan).forEach(out);
    // The API left out what this bulk id already issued (docs/bulk-idempotency.md): say so.
    if (plan.done && plan.done.rowCount > 0) {
      const pending = plan.done.chunks.filter((c) => c.status === "pending").length;
      out(
        `bulk id ${plan.bulkId}: ${plan.done.rowCount} of ${plan.rowCount} rows already issued (${plan.done.chunks.length - pending} transactions mined, ${pending} pending): not sent again`,
      );
    }
    // The bulk id is an idempotency key: say what of this drop is on chain already, whatever
    // the plan file (a lost or new one included); another drop under this id is CONFLICT.
    const landed = await client.bulk.landed(plan, provider);
    if (landed.size > 0 && plan.chunkCount > 0) {
      out(
        `bulk id ${plan.bulkId}: ${landed.size} of ${plan.chunkCount} transactions already on chain (${landed.size === plan.chunkCount ? "nothing left to send" : "they are not sent again"})`,
      );
    }
    if (args.dryRun) return plan.blocked || plan.notAllowed.length ? EXIT.refused : EXIT.done;
    // Kept before the first signature: this file is what a resume starts from.
    writeFileSync(`${args.plan}.tmp`, JSON.stringify(plan));
    renameSync(`${args.plan}.tmp`, args.plan!);
    out(`plan kept in ${args.plan}`);
  }
  const chainId = (await provider.getNetwork()).chainId;
  if (String(chainId) !== plan.program.chainId) {
    throw new PointsApiError(
      "WRONG_SIGNER",
      `--rpc-url is chain ${chainId}; the plan is for chain ${plan.program.chainId}`,
    );
  }
  const result = await client.bulk.send(plan, signer!, {
    confirmations: args.confirmations,
    onProgress: (p) => (p.status === "failed" ? err : out)(progressLine(plan, p)),
  });
  const sent = result.filter((r) => r.status === "mined").length;
  out(`done: all ${plan.chunkCount} transactions on chain (${sent} sent now, ${plan.chunkCount - sent} already there)`);
  return EXIT.done;
}

async function main(): Promise<number> {
  try {
    return await run(readArgs(process.argv.slice(2), process.env), process.env);
  } catch (e) {
    if (e instanceof UsageError) {
      if (e.message) err(`error: ${e.message}`);
      err(USAGE);
      return EXIT.usage;
    }
    if (e instanceof PointsApiError) {
      err(`error ${e.code}: ${e.message}`);
      const rows = (
        e.details as { rows?: { row: number; line?: number; field: string; reason?: string }[] } | undefined
      )?.rows;
      if (e.code === "INVALID_ROWS" && Array.isArray(rows)) {
        for (const r of rows)
          err(`  row ${r.row}${r.line === undefined ? "" : ` (line ${r.line})`} ${r.field}: ${r.reason}`);
      }
      return REFUSED.has(e.code) ? EXIT.refused : EXIT.failed;
    }
    err(`error: ${(e as Error).message}`);
    return EXIT.failed;
  }
}

process.exitCode = await main();
