/**
 * The EIP-712 typed data a manager of a program signs for its redemption desk
 * (docs/deployment.md#redemption-desk): a policy change or a decision on a request. One
 * definition: the schema (which the API checks signatures against) imports it and the SDK's build
 * copies this file (it has no imports, so the published SDK needs no @points/contracts). Its
 * domain, field order and types are what earlier signatures were made over: changing any of them
 * makes those signatures fail to verify.
 */

/** The desk's policies: automatic, manual (a manager decides) or off. */
export const DESK_POLICIES = ["automatic", "manual", "off"] as const;
export type DeskPolicyName = (typeof DESK_POLICIES)[number];

/** What a manager decides on a redemption request. */
export const DESK_DECISIONS = ["approve", "reject"] as const;
export type DeskDecisionName = (typeof DESK_DECISIONS)[number];

/** One signed desk instruction: a policy change or a decision on a redemption request. */
export type DeskInstruction =
  | { kind: "policy"; policy: DeskPolicyName; version: number; signedUntil: number }
  | { kind: "decision"; requestId: string; decision: DeskDecisionName; reason: string; signedUntil: number };

/** EIP-712 typed data, as ethers' signTypedData and verifyTypedData take it. */
export interface DeskTypedData {
  domain: { name: string; version: string; chainId: bigint; verifyingContract: string };
  types: Record<string, { name: string; type: string }[]>;
  message: Record<string, string | number>;
}

/** The EIP-712 domain, types and message a manager signs for `instruction` on `factory`'s desk. */
export function deskTypedData(
  chainId: number | bigint | string,
  factory: string,
  instruction: DeskInstruction,
): DeskTypedData {
  const domain = { name: "Points redemption desk", version: "1", chainId: BigInt(chainId), verifyingContract: factory };
  if (instruction.kind === "policy") {
    return {
      domain,
      types: {
        DeskPolicy: [
          { name: "policy", type: "string" },
          { name: "version", type: "uint256" },
          { name: "signedUntil", type: "uint256" },
        ],
      },
      message: { policy: instruction.policy, version: instruction.version, signedUntil: instruction.signedUntil },
    };
  }
  return {
    domain,
    types: {
      DeskDecision: [
        { name: "requestId", type: "uint256" },
        { name: "decision", type: "string" },
        { name: "reason", type: "string" },
        { name: "signedUntil", type: "uint256" },
      ],
    },
    message: {
      requestId: instruction.requestId,
      decision: instruction.decision,
      reason: instruction.reason,
      signedUntil: instruction.signedUntil,
    },
  };
}
