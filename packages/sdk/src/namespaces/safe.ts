import type { Core } from "./core.js";
import { paginate } from "../paginate.js";
import type { Body, Params, Query } from "../types.js";

/**
 * Safe transaction proposals stored by the service, scoped to this client's API key: create one
 * from a build answer's `safe.tx`, add owners' EIP-712 signatures of `safe.typedData`, and get
 * the unsigned execTransaction once enough owners signed. `batch` builds one Safe transaction of
 * several build routes' actions (MultiSendCallOnly), to propose like a single one.
 */
export function safeNamespace(core: Core) {
  return {
    /**
     * One Safe transaction running `actions` in order from `safe` (a delegatecall to
     * MultiSendCallOnly), each action a build route's name and its body without signer or nonce;
     * simulated in order, a refused action is named by `details.action`. Propose its `safe.tx`.
     * An action without its own `program` gets the client's default, as single calls do.
     */
    batch: (body: Body<"safeBatch">) =>
      core.request("safeBatch", {
        body: {
          ...body,
          actions: body.actions.map((a) => ({ ...a, body: { program: core.program, ...a.body } })),
        } as Body<"safeBatch">,
      }),
    /** Stores a proposal (201), with the proposer's signature if given. */
    propose: (body: Body<"safeProposalCreate">) => core.request("safeProposalCreate", { body }),
    /**
     * A page of the caller's proposals, newest first, optionally of one chain, Safe or status:
     * `{ proposals, nextCursor }`; pass `nextCursor` as `cursor` for the next page.
     */
    proposals: (query: Query<"safeProposalList"> = {}) => core.request("safeProposalList", { query }),
    /** Every page of `proposals`: `for await (const p of client.safe.allProposals({ chainId }))`. */
    allProposals: (query: Omit<Query<"safeProposalList">, "cursor"> = {}) =>
      paginate(
        (cursor) => core.request("safeProposalList", { query: cursor === undefined ? query : { ...query, cursor } }),
        (page) => page.proposals,
      ),
    /** One proposal: status, signatures, how many are missing. */
    proposal: (id: Params<"safeProposalGet">["proposalId"]) =>
      core.request("safeProposalGet", { params: { proposalId: id } }),
    /** Adds an owner's signature of the proposal's safeTxHash. */
    sign: (id: Params<"safeProposalSign">["proposalId"], signature: Body<"safeProposalSign">["signature"]) =>
      core.request("safeProposalSign", { params: { proposalId: id }, body: { signature } }),
    /** The unsigned execTransaction for `from` (any owner or relayer) to sign and send. */
    execute: (id: Params<"safeProposalExecute">["proposalId"], from: Body<"safeProposalExecute">["from"]) =>
      core.request("safeProposalExecute", { params: { proposalId: id }, body: { from } }),
  };
}
