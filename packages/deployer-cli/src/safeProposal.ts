import type { Command } from "commander";
import { Wallet, type Provider } from "ethers";
import { proposeToSafeService, safeInfo, safeTransaction, type SafeCall } from "@points/deployer";
import { proposeToApi } from "./propose.js";
import { CliError } from "./errors.js";
import { toJson } from "./output.js";

// When the account that must sign is a Safe, the CLI prints (or submits to the API) the Safe
// transaction its owners sign instead of plain transactions (docs/deployment.md#a-safe-as-admin).

export interface SafeFlags {
  json?: boolean;
  propose?: boolean;
  apiUrl?: string;
  safeService?: string;
  multiSendCallOnly?: string;
}

export const safeProposalOptions = (cmd: Command) =>
  cmd
    .option(
      "--multi-send-call-only <address>",
      "when the signer is a Safe and there are several calls: the MultiSendCallOnly v1.4.1 to batch them through (default: its canonical address)",
    )
    .option(
      "--propose",
      "when the signer is a Safe: store the Safe transaction as a proposal in the API (--api-url or POINTS_API_URL; API key in POINTS_API_KEY)",
    )
    .option("--api-url <url>", "the API that stores the proposal (default: POINTS_API_URL)")
    .option(
      "--safe-service <url>",
      "when the signer is a Safe: propose the Safe transaction to the Safe Transaction Service at <url> (its base URL, ending in /api), signed by the owner whose key is in SAFE_OWNER_PRIVATE_KEY, so it shows in Safe{Wallet}",
    );

/**
 * Prints the Safe transaction of `calls` when `from` is a Safe (and proposes it with --propose);
 * false when `from` is a wallet, whose transactions the caller prints as before.
 */
export async function printSafeTransaction(
  provider: Provider,
  from: string,
  calls: SafeCall[],
  o: SafeFlags,
  write = (s: string) => process.stdout.write(s),
): Promise<boolean> {
  if (!(await safeInfo(provider, from))) {
    const flag = o.propose ? "--propose" : o.safeService ? "--safe-service" : undefined;
    if (flag) throw new CliError(`${flag}: the signer ${from} is not a Safe; sign the transactions below`);
    return false;
  }
  const t = await safeTransaction(provider, from, calls, { multiSendCallOnly: o.multiSendCallOnly });
  let proposalId: string | undefined;
  if (o.propose) {
    const url = o.apiUrl ?? process.env.POINTS_API_URL;
    const key = process.env.POINTS_API_KEY;
    if (!url || !key)
      throw new CliError("--propose needs the API's URL (--api-url or POINTS_API_URL) and POINTS_API_KEY");
    proposalId = await proposeToApi(t, { url, key });
  }
  let safeService: { url: string; sender: string } | undefined;
  if (o.safeService) {
    // The owner's key comes from the environment, never a flag (flags end up in shell histories).
    const key = process.env.SAFE_OWNER_PRIVATE_KEY;
    if (!key) throw new CliError("--safe-service needs the proposing owner's key in SAFE_OWNER_PRIVATE_KEY");
    const proposal = await proposeToSafeService(t, o.safeService, new Wallet(key));
    safeService = { url: o.safeService, sender: proposal.body.sender };
  }
  if (o.json) {
    write(`${toJson({ ...t, ...(proposalId && { proposalId }), ...(safeService && { safeService }) })}\n`);
    return true;
  }
  const how = t.tx.operation === 1 ? `delegatecall to MultiSendCallOnly, ${t.calls.length} calls` : "call";
  write(
    `Safe transaction for the Safe ${t.safe} (${t.threshold} of ${t.owners.length}: ${t.owners.join(", ")}):\n` +
      `  to ${t.tx.to}, value ${t.tx.value}, operation ${t.tx.operation} (${how}), nonce ${t.tx.nonce}\n` +
      `  data ${t.tx.data}\n` +
      t.calls.map((c, i) => `  call ${i}: to ${c.to} data ${c.data}\n`).join("") +
      `  safeTxHash ${t.safeTxHash}\n` +
      `  EIP-712 typed data (each owner signs it): ${JSON.stringify(t.typedData)}\n` +
      (safeService
        ? `proposed to the Safe Transaction Service at ${safeService.url}, signed by owner ${safeService.sender}: the other owners confirm it in Safe{Wallet}\n`
        : "") +
      (proposalId
        ? `proposal ${proposalId} stored in the API: owners add their signatures there, then anyone executes it\n`
        : safeService
          ? ""
          : `${t.threshold} owners sign it; then anyone sends execTransaction (or store it with --propose or --safe-service)\n`),
  );
  return true;
}
