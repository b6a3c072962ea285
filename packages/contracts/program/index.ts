/**
 * What a program is, defined once: its contracts, their roles, the dev chains and the
 * onboarding stages. The API, deployer, schema, SDK and console import these instead of
 * keeping copies.
 *
 * Two entries, so a browser bundle never carries ABIs:
 * - `@points/contracts/program` (this file): names, roles, role hashes, chain ids, stage
 *   names, the RPC-unreachable test, the chain-id probe, the Safe EIP-712 types and the
 *   redemption desk's typed data. No dependencies; safe for the schema and the console.
 * - `@points/contracts/program/abi`: the ABIs, their ethers Interfaces and the revert decoder
 *   (needs ethers); for the API and the deployer.
 * - `@points/contracts/program/code`: the release's creation and runtime code; for the deployer.
 * - `@points/contracts/program/multiSend`: MultiSendCallOnly's address, code hash and batch
 *   encoding (needs ethers); for the API, the deployer and the testkit.
 * - `@points/contracts/program/safe`: the Safe's ABI, its views read from the chain, and the
 *   SafeTx's default fill, EIP-712 domain and hash (needs ethers); for the API and the deployer.
 * Roles and ABIs are generated at build time from the Hardhat artifacts (scripts/program.ts):
 * which roles a contract has is whatever `*_ROLE()` constants its ABI defines.
 */
import { CONTRACT_ARTIFACTS, CONTRACT_ROLES, ROLE_HASHES } from "./generated/roles.js";

export { CONTRACT_ARTIFACTS, CONTRACT_ROLES, ROLE_HASHES };
export { rolesInAbi, type AbiItem } from "./abiRoles.js";
export { SAFE_DOMAIN_TYPE, SAFE_TX_TYPES, SAFE_TYPED_DATA_TYPES } from "./safeTx.js";
export {
  DESK_DECISIONS,
  DESK_POLICIES,
  deskTypedData,
  type DeskDecisionName,
  type DeskInstruction,
  type DeskPolicyName,
  type DeskTypedData,
} from "./deskTypedData.js";

/** The contracts of one program, in deployment order, by the names records and routes use. */
export const PROGRAM_CONTRACTS = ["points", "factory", "collateralVault", "pspVault", "oracle"] as const;
export type ProgramContract = (typeof PROGRAM_CONTRACTS)[number];

/** Where one program lives: its chain, brand and contract addresses (the oracle is optional). */
export interface ProgramLocation {
  chainId: string;
  brand: string;
  factory: string;
  points: string;
  collateralVault: string;
  pspVault: string;
  oracle: string | null;
}

/** Program contracts plus the per-chain ProgramFactory. */
export type ContractKey = keyof typeof CONTRACT_ROLES;

/** A role some program contract defines (ProgramFactory's OPERATOR_ROLE is not one). */
export type RoleName = (typeof CONTRACT_ROLES)[ProgramContract][number];

/** Every role of the program's contracts, each once, DEFAULT_ADMIN_ROLE first. */
export const ROLE_NAMES: readonly RoleName[] = [...new Set(PROGRAM_CONTRACTS.flatMap((c) => CONTRACT_ROLES[c]))];

/** The roles `contract` defines. */
export const rolesOf = (contract: ContractKey): readonly string[] => CONTRACT_ROLES[contract];

/** bytes32 of a role: keccak256 of its name, zero for DEFAULT_ADMIN_ROLE. */
export const roleHash = (role: keyof typeof ROLE_HASHES): string => ROLE_HASHES[role];

const ROLE_BY_HASH = new Map<string, keyof typeof ROLE_HASHES>(
  Object.entries(ROLE_HASHES).map(([name, hash]) => [hash, name as keyof typeof ROLE_HASHES]),
);

/** The role's name for a bytes32 hash, or undefined when no contract of the platform defines it. */
export const roleNameOf = (hash: string): keyof typeof ROLE_HASHES | undefined => ROLE_BY_HASH.get(hash.toLowerCase());

/** Development chains (Hardhat; Anvil and Ganache): mock collateral allowed, dev keys default. */
export const DEV_CHAIN_IDS = [31337, 1337] as const;

export const isDevChainId = (chainId: number | bigint | string): boolean =>
  DEV_CHAIN_IDS.some((id) => String(id) === String(chainId));

/** The stages of onboarding a program, in order. */
export const PROGRAM_STAGES = ["validate", "release", "deploy", "verify", "register"] as const;

/** Every stage the deployer records: onboarding's, then upgrades' and the admin handover's. */
export const STAGE_NAMES = [...PROGRAM_STAGES, "upgrade", "handover", "accept"] as const;
export type StageName = (typeof STAGE_NAMES)[number];

// ethers' codes for a node that failed or answered nonsense, and Node's socket errors, which
// ethers passes through untouched (a closed port is a bare ECONNREFUSED).
const TRANSPORT_CODES = new Set([
  "TIMEOUT",
  "NETWORK_ERROR",
  "SERVER_ERROR",
  "UNKNOWN_ERROR",
  "BAD_DATA",
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
]);
const TRANSPORT_TEXT =
  /ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ETIMEDOUT|socket hang up|fetch failed/i;

/**
 * Whether `e` (or an error it wraps) says the chain's node could not be reached or understood:
 * a transport code anywhere in its cause chain, or a socket failure named in its message.
 */
export function isRpcUnreachable(e: unknown): boolean {
  for (let cur = e, depth = 0; cur && typeof cur === "object" && depth < 5; depth++) {
    const { code, message } = cur as { code?: unknown; message?: unknown };
    if (typeof code === "string" && TRANSPORT_CODES.has(code)) return true;
    if (typeof message === "string" && TRANSPORT_TEXT.test(message)) return true;
    cur = (cur as { cause?: unknown }).cause ?? (cur as { error?: unknown }).error;
  }
  return false;
}

/**
 * Asks the JSON-RPC node at `url` for its chain id; undefined when nothing answers sensibly
 * within `timeoutMs` (closed port, timeout, a body that is not JSON-RPC), so callers can poll.
 */
export async function rpcChainId(url: string, timeoutMs = 2000): Promise<bigint | undefined> {
  try {
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const body = (await res.json()) as { result?: string };
    return body.result === undefined ? undefined : BigInt(body.result);
  } catch {
    return undefined;
  }
}
