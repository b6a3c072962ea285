/**
 * The node implementations the suites run against. Hardhat's node is the default; `TEST_NODE=anvil` runs the same
 * suites on Foundry's anvil, whose JSON-RPC error texts, mempool rules and fee behaviour differ
 * (docs/architecture.md#nodes-and-networks).
 */
export const NODE_KINDS = ["hardhat", "anvil"] as const;
export type NodeKind = (typeof NODE_KINDS)[number];

export class DevNodeError extends Error {}

/** The node `TEST_NODE` names (hardhat when unset); any other value is an error, never a silent default. */
export function testNodeKind(env: NodeJS.ProcessEnv = process.env): NodeKind {
  const raw = env.TEST_NODE?.trim();
  if (!raw) return "hardhat";
  if ((NODE_KINDS as readonly string[]).includes(raw)) return raw as NodeKind;
  throw new DevNodeError(`TEST_NODE=${raw}: expected one of ${NODE_KINDS.join(", ")}`);
}
