import { getAddress } from "ethers";
import { PROPOSAL_PAGE, type routes } from "@points/schema";
import type { Ctx, Handler } from "../../../core/context.js";
import { ownerOf, type Caller } from "../../../core/auth/caller.js";
import { ApiError } from "../../../core/errors.js";
import { revertData } from "../../../core/chain/revert.js";
import { safeTxAnswer, type SafeState } from "../../../core/chain/safe.js";
import { SAFE_ABI } from "@points/contracts/program/safe";
import { unsignedType2 } from "../../../core/chain/build.js";
import { requireMultiSendCallOnly } from "../../../core/chain/multiSend.js";
import { chainUnavailable } from "../../../core/chain/client.js";
import { SafeProposals, type StoredProposal } from "../../../core/safe/proposals.js";
import {
  ownerSignatures,
  packSignatures,
  proposalView,
  requireOpen,
  safeAt,
  signerOf,
} from "../../../core/safe/view.js";

// Safe transaction proposals (docs/architecture.md#safe-multisig): stored per API key (or
// console session); another caller's proposal is 404, as if it did not exist.

const store = (ctx: Ctx) => new SafeProposals(ctx.db);

function ownerKey(caller: Caller): string {
  const owner = ownerOf(caller);
  if (!owner) throw new ApiError("UNAUTHORIZED", "proposals belong to an API key or a console session");
  return owner;
}

async function owned(ctx: Ctx, caller: Caller, id: string): Promise<StoredProposal> {
  const p = await store(ctx).get(ownerKey(caller), id);
  if (!p) throw new ApiError("NOT_FOUND", `no Safe proposal ${id}`);
  return p;
}

/** Checks `signature` against the Safe's current owners and records it once per owner. */
async function addSignature(ctx: Ctx, p: StoredProposal, owners: string[], signature: string) {
  const signer = signerOf(p.safeTxHash, signature);
  if (!owners.includes(signer)) {
    throw new ApiError("FORBIDDEN", `${signer} is not an owner of Safe ${p.safe}`, {
      reason: "NOT_AN_OWNER",
      signer,
      owners,
    });
  }
  if (!(await store(ctx).addSignature(p.id, signer, signature))) {
    throw new ApiError("CONFLICT", `${signer} already signed proposal ${p.id}`, { reason: "ALREADY_SIGNED", signer });
  }
}

export const safeProposalCreate: Handler<typeof routes.safeProposalCreate> = async ({ body, caller }, ctx) => {
  const owner = ownerKey(caller);
  const chainId = String(body.chainId);
  const chain = ctx.chains.get(chainId);
  const tx = { ...body.tx, to: getAddress(body.tx.to) };
  const safe = await safeAt(chain, body.safe);
  // A delegatecall runs code with the Safe's storage: only into MultiSendCallOnly (a batch).
  if (tx.operation === 1) await requireMultiSendCallOnly(chain, tx.to);
  if (BigInt(tx.nonce) < safe.nonce) {
    throw new ApiError(
      "CONFLICT",
      `nonce ${tx.nonce} of Safe ${safe.address} is used; its next nonce is ${safe.nonce}`,
      {
        reason: "NONCE_USED",
        next: safe.nonce.toString(),
      },
    );
  }
  const { safeTxHash } = safeTxAnswer(chain.chainId, safe, tx);
  let createdBlock: number;
  try {
    createdBlock = await chain.provider.getBlockNumber();
  } catch (e) {
    chainUnavailable(e, chain.config);
  }
  const fields = { owner, chainId, safe: safe.address, nonce: BigInt(tx.nonce), safeTxHash, tx };
  const cap = ctx.config.safe.openProposalsPerSafe;
  const added = await store(ctx).insert({ ...fields, createdBlock }, { cap, openFrom: safe.nonce });
  if (added === "duplicate") {
    throw new ApiError("CONFLICT", `this transaction is already proposed`, {
      reason: "ALREADY_PROPOSED",
      id: await store(ctx).idOf(owner, chainId, safeTxHash),
    });
  }
  if (added === "capped") {
    // Each open proposal costs chain reads on every list; executed or replaced ones stop counting.
    throw new ApiError(
      "CONFLICT",
      `this key already has ${cap} open proposals of Safe ${safe.address}; execute or replace some first`,
      { reason: "TOO_MANY_OPEN_PROPOSALS", safe: safe.address, limit: cap, next: safe.nonce.toString() },
    );
  }
  const { id } = added;
  const stored = (await store(ctx).get(owner, id))!;
  if (body.signature) await addSignature(ctx, stored, safe.owners, body.signature);
  return proposalView(chain, (await store(ctx).get(owner, id))!, safe);
};

export const safeProposalList: Handler<typeof routes.safeProposalList> = async ({ query, caller }, ctx) => {
  const limit = query.limit ?? PROPOSAL_PAGE.default;
  const page = await store(ctx).list(ownerKey(caller), query, { limit, after: query.cursor });
  if (!page) {
    // Well-formed but not one of the caller's (another key's, or deleted): nothing to page after.
    throw new ApiError("NOT_FOUND", `no proposal ${query.cursor} of this key to page after`, { cursor: query.cursor });
  }
  // One read of each Safe per page, not one per proposal.
  const safes = new Map<string, Promise<SafeState>>();
  const views = await Promise.all(
    page.items.map((p) => {
      const chain = ctx.chains.get(p.chainId);
      const key = `${p.chainId}:${p.safe}`;
      if (!safes.has(key)) safes.set(key, safeAt(chain, p.safe));
      return safes.get(key)!.then((safe) => proposalView(chain, p, safe));
    }),
  );
  return {
    proposals: query.status ? views.filter((v) => v.status === query.status) : views,
    nextCursor: page.more ? page.items.at(-1)!.id : null,
  };
};

export const safeProposalGet: Handler<typeof routes.safeProposalGet> = async ({ params, caller }, ctx) => {
  const p = await owned(ctx, caller, params.proposalId);
  return proposalView(ctx.chains.get(p.chainId), p);
};

export const safeProposalSign: Handler<typeof routes.safeProposalSign> = async ({ params, body, caller }, ctx) => {
  const p = await owned(ctx, caller, params.proposalId);
  const chain = ctx.chains.get(p.chainId);
  const safe = await safeAt(chain, p.safe);
  requireOpen(await proposalView(chain, p, safe));
  await addSignature(ctx, p, safe.owners, body.signature);
  return proposalView(chain, (await owned(ctx, caller, params.proposalId))!, safe);
};

export const safeProposalExecute: Handler<typeof routes.safeProposalExecute> = async (
  { params, body, caller },
  ctx,
) => {
  const p = await owned(ctx, caller, params.proposalId);
  const chain = ctx.chains.get(p.chainId);
  const safe = await safeAt(chain, p.safe);
  const view = await proposalView(chain, p, safe);
  requireOpen(view);
  if (view.missing > 0) {
    throw new ApiError(
      "CONFLICT",
      `proposal ${p.id} has ${safe.threshold - view.missing} of ${safe.threshold} owner signatures`,
      { reason: "BELOW_THRESHOLD", signatures: safe.threshold - view.missing, threshold: safe.threshold },
    );
  }
  if (p.nonce !== safe.nonce) {
    throw new ApiError("CONFLICT", `the Safe's next nonce is ${safe.nonce}; this proposal has nonce ${p.nonce}`, {
      reason: "NONCE_NOT_NEXT",
      next: safe.nonce.toString(),
    });
  }
  // Exactly threshold signatures: more cost gas and prove nothing more.
  const signatures = packSignatures(ownerSignatures(p, safe).slice(0, safe.threshold));
  const t = p.tx;
  const data = SAFE_ABI.encodeFunctionData("execTransaction", [
    ...[t.to, t.value, t.data, t.operation, t.safeTxGas, t.baseGas, t.gasPrice, t.gasToken, t.refundReceiver],
    signatures,
  ]);
  const from = getAddress(body.from);
  const pr = chain.provider;
  try {
    const [nonce, estimate, fees] = await Promise.all([
      pr.getTransactionCount(from, "pending"),
      pr.estimateGas({ from, to: safe.address, data }),
      chain.feeData(),
    ]);
    return {
      ...unsignedType2(chain, { from, to: safe.address, data, nonce, estimate, fees }),
      safeTxHash: p.safeTxHash,
      signatures,
    };
  } catch (e) {
    if (e instanceof ApiError) throw e;
    if ((e as { code?: string }).code === "CALL_EXCEPTION" || revertData(e) !== undefined) {
      const reason = (e as { shortMessage?: string }).shortMessage ?? "execution reverted";
      throw new ApiError("WOULD_REVERT", `execTransaction would revert: ${reason}`, {
        contract: "safe",
        data: revertData(e),
      });
    }
    chainUnavailable(e, chain.config);
  }
};
