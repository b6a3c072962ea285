import type { Wallet } from "ethers";
import { SAFE_TX_TYPES, type SafeProposal } from "@points/schema";
import type { devSafe } from "@points/testkit";
import { expectOk, type E2E } from "./e2e.js";

type Draft = Pick<SafeProposal, "chainId" | "safe" | "tx">;

/** The EIP-712 typed data of a proposal (docs/architecture.md#safe-multisig). */
export const typedOf = (p: Draft) => ({
  domain: { chainId: p.chainId, verifyingContract: p.safe },
  types: { SafeTx: SAFE_TX_TYPES.SafeTx.map((f) => ({ ...f })) },
  message: p.tx,
});

/** `owner`'s EIP-712 signature of the proposal. */
export const signProposal = (owner: Wallet, p: Draft) => {
  const t = typedOf(p);
  return owner.signTypedData(t.domain, t.types, t.message);
};

/**
 * Proposals of `safe` through the API of `e`: `proposeSigned(tx)` stores `tx` with owner 0's
 * signature and adds owner 2's through the sign route; `execute(id)` builds execTransaction for
 * `relayer`; `run(tx)` does both and relays it.
 */
export function safeProposer(e: E2E, safe: Awaited<ReturnType<typeof devSafe>>, relayer: Wallet) {
  const proposeSigned = async (tx: SafeProposal["tx"]) => {
    const draft = { chainId: "31337", safe: safe.address, tx };
    const created = expectOk(
      "safeProposalCreate",
      await e.call("safeProposalCreate", {
        body: { chainId: 31337, safe: safe.address, tx, signature: await signProposal(safe.owners[0]!, draft) },
      }),
    );
    const signature = await signProposal(safe.owners[2]!, draft);
    expectOk(
      "safeProposalSign",
      await e.call("safeProposalSign", { params: { proposalId: created.id }, body: { signature } }),
    );
    return created.id;
  };
  const execute = (proposalId: string) =>
    e.call("safeProposalExecute", { params: { proposalId }, body: { from: relayer.address } });
  const run = async (tx: SafeProposal["tx"]) =>
    e.send(relayer, expectOk("safeProposalExecute", await execute(await proposeSigned(tx))));
  return { proposeSigned, execute, run };
}
