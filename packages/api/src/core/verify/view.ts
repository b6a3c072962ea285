import type { SourceVerificationView, VerificationStatus } from "@points/schema";
import type { Ctx } from "../context.js";
import { explorerNames } from "./explorers.js";
import { VerifyStore } from "./store.js";

/** A program's source verification as the task view shows it (docs/deployment.md#source-verification). */
export async function verificationView(ctx: Ctx, programId: string, chainId: string): Promise<SourceVerificationView> {
  const configured = ctx.chains.has(chainId) ? explorerNames(ctx.chains.get(chainId).config) : [];
  const rows = await new VerifyStore(ctx.db).forProgram(programId);
  if (rows.length === 0) {
    return {
      status: "skipped",
      message: configured.length
        ? "this program's contracts were not queued for verification"
        : `no explorer is configured for chain ${chainId}`,
      contracts: [],
    };
  }
  const contracts = rows.map((r) => ({
    contract: r.contract,
    address: r.address,
    explorer: r.explorer,
    status: (r.status ?? "skipped") as VerificationStatus,
    url: r.status === "verified" ? r.url : null,
    reason:
      r.status === null ? `no explorer was configured for chain ${chainId} when the program was deployed` : r.reason,
    attempts: r.attempts,
    nextAttemptAt: r.nextAttemptAt,
  }));
  const count = (s: VerificationStatus) => contracts.filter((c) => c.status === s).length;
  if (count("failed") > 0) {
    const first = contracts.find((c) => c.status === "failed")!;
    return { status: "failed", message: `${count("failed")} failed; ${first.contract}: ${first.reason}`, contracts };
  }
  if (count("pending") > 0) {
    return { status: "pending", message: `${count("pending")} of ${contracts.length} still pending`, contracts };
  }
  if (count("verified") === contracts.length) return { status: "verified", message: null, contracts };
  return { status: "skipped", message: contracts[0]!.reason, contracts };
}
