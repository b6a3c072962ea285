import type { Provider, Signer } from "ethers";
import type { Core } from "./core.js";
import type { Body } from "../types.js";
import { PointsApiError } from "../errors.js";
import type { BulkPlan, BulkSendOptions, LandedOptions } from "../bulk.js";

// bulk.js holds ethers' ABI coder: loaded when a plan is sent or checked, not with the client.
const bulk = () => import("../bulk.js");

/**
 * Bulk issuance, settlement and expiry (docs/rules.md#bulk-requests): `mint`, `settle` and
 * `expire` answer a plan (with `dryRun: true` only its figures), `send` sends a plan's chunks
 * in order and resumes after a failure, `landed` says which chunks are on chain, and `propose`
 * stores one Safe proposal per chunk when the signer is a Safe.
 */
export function bulkNamespace(core: Core) {
  const withProgram = <B extends { program?: string }>(body: B) => ({ ...body, program: body.program ?? core.program });
  return {
    mint: (body: Body<"bulkPspMint">) => core.request("bulkPspMint", { body: withProgram(body) }),
    settle: (body: Body<"bulkPspSettle">) => core.request("bulkPspSettle", { body: withProgram(body) }),
    expire: (body: Body<"bulkPspExpire">) => core.request("bulkPspExpire", { body: withProgram(body) }),
    send: async (plan: BulkPlan, signer: Signer, opts?: BulkSendOptions) => (await bulk()).sendBulk(plan, signer, opts),
    /**
     * Indexes of the plan's chunks already on chain, a dry run's included (its vault is read from
     * the program): run it before sending a drop again; CONFLICT when the bulk id was used by
     * another drop. `reader` is a signer or a provider.
     */
    landed: async (plan: BulkPlan, reader: Signer | Provider, opts: LandedOptions = {}) => {
      const provider = "provider" in reader && reader.provider ? reader.provider : (reader as Provider);
      if (typeof provider.getLogs !== "function") {
        throw new PointsApiError("WRONG_SIGNER", "the signer has no provider to read the chain with");
      }
      const vault =
        opts.vault ??
        plan.chunks.find((c) => c.tx)?.tx?.to ??
        (await core.request("getFactory", { params: { id: plan.program.id } })).pspVault;
      return (await bulk()).landedChunks(plan, provider, { ...opts, vault });
    },
    /**
     * One Safe proposal per chunk, in chunk order (their Safe nonces are consecutive); owners then
     * sign each one's safeTxHash (client.safe.sign) and they are executed in order.
     */
    propose: async (plan: BulkPlan) => {
      const proposals = [];
      for (const c of plan.chunks) {
        if (!c.tx?.safe) {
          throw new PointsApiError(
            "WRONG_SIGNER",
            `chunk ${c.index + 1} has no Safe transaction: the plan's signer is no Safe (send the plan instead)`,
            { details: { index: c.index } },
          );
        }
        proposals.push(
          await core.request("safeProposalCreate", {
            body: {
              chainId: Number(c.tx.chainId),
              safe: c.tx.from,
              tx: c.tx.safe.tx,
            },
          }),
        );
      }
      return proposals;
    },
  };
}
