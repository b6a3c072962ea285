import type { Core } from "./core.js";
import type { ResponseData } from "../types.js";
import { deskTypedData, type DeskInstruction, type DeskTypedData } from "../generated/deskTypedData.js";

/** A wallet that signs EIP-712 typed data (an ethers v6 Signer fits). */
export interface TypedDataSigner {
  getAddress(): Promise<string>;
  signTypedData(
    domain: Record<string, unknown>,
    types: Record<string, { name: string; type: string }[]>,
    value: Record<string, unknown>,
  ): Promise<string>;
}

export type DeskView = ResponseData<"redemptionDeskGet">;
type Policy = DeskView["policy"];

/**
 * The typed data a manager signs for the redemption desk: `@points/contracts/program`'s, which
 * the server checks against, copied into the SDK at build time (scripts/deskTypedData.ts) so the
 * SDK has no runtime dependency on it.
 */
export { deskTypedData, type DeskTypedData };

const until = (seconds: number) => Math.floor(Date.now() / 1000) + seconds;

async function signed(desk: DeskView, i: DeskInstruction, manager: TypedDataSigner) {
  const t = deskTypedData(desk.chainId, desk.factory, i);
  return {
    manager: await manager.getAddress(),
    signature: await manager.signTypedData(t.domain, t.types, t.message),
    signedUntil: i.signedUntil,
  };
}

/**
 * The redemption desk of a program (docs/deployment.md#redemption-desk): read it, set its policy
 * and decide on requests. Changes are signed by `manager`, a MANAGER_ROLE holder of the Factory;
 * they take the desk as `get` returned it (its chain, Factory and version are what is signed).
 * `validForSeconds` (default 600, at most 3600) bounds the signature's life.
 */
export function deskNamespace(core: Core) {
  const decide = async (
    desk: DeskView,
    requestId: string,
    decision: "approve" | "reject",
    reason: string,
    manager: TypedDataSigner,
    validForSeconds = 600,
  ) => {
    const i = { kind: "decision" as const, requestId, decision, reason, signedUntil: until(validForSeconds) };
    return core.request("redemptionDeskDecide", {
      params: { programId: desk.programId, requestId },
      body: { decision, reason, ...(await signed(desk, i, manager)) },
    });
  };
  return {
    /** Policy, executor status and the pending queue. */
    get: (programId: string) => core.request("redemptionDeskGet", { params: { programId } }),
    /** Sets the policy; 409 CONFLICT (VERSION_MOVED) when the desk changed since `desk` was read. */
    setPolicy: async (desk: DeskView, policy: Policy, manager: TypedDataSigner, validForSeconds = 600) => {
      const i = { kind: "policy" as const, policy, version: desk.version, signedUntil: until(validForSeconds) };
      return core.request("redemptionDeskPolicySet", {
        params: { programId: desk.programId },
        body: { policy, version: desk.version, ...(await signed(desk, i, manager)) },
      });
    },
    /** Approves a pending request: the executor finalizes it. */
    approve: (desk: DeskView, requestId: string, manager: TypedDataSigner, validForSeconds?: number) =>
      decide(desk, requestId, "approve", "", manager, validForSeconds),
    /** Rejects a pending request with a reason: the executor calls rejectRedeem, the SP goes back. */
    reject: (desk: DeskView, requestId: string, reason: string, manager: TypedDataSigner, validForSeconds?: number) =>
      decide(desk, requestId, "reject", reason, manager, validForSeconds),
  };
}
