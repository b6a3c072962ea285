import { z } from "zod";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { ROLE_NAMES, type ProgramContract, type RoleName } from "@points/contracts/program";

/** Largest uint256. Amounts above it are refused at validation, not by the chain. */
export const MAX_UINT256 = 2n ** 256n - 1n;

/** EIP-55: the case of each hex letter is a bit of keccak256 of the lowercase hex. */
export function isChecksumValid(address: string): boolean {
  const hex = address.slice(2);
  const lower = hex.toLowerCase();
  if (hex === lower || hex === hex.toUpperCase()) return true;
  const hash = keccak_256(Uint8Array.from(lower, (c) => c.charCodeAt(0)));
  for (let i = 0; i < 40; i++) {
    const nibble = (hash[i >> 1] >> (i % 2 === 0 ? 4 : 0)) & 0xf;
    const c = hex[i];
    if (c >= "a" && c <= "f" && nibble >= 8) return false;
    if (c >= "A" && c <= "F" && nibble < 8) return false;
  }
  return true;
}

/**
 * An EVM address in any letter case; responses always checksum. A mixed-case address is an
 * EIP-55 checksum and must be right: a wrong one is most likely a typo.
 */
export const Address = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, "must be an address: 0x followed by 40 hex digits")
  .refine(isChecksumValid, "has a wrong EIP-55 checksum (mixed case): check for a typo, or send it in lowercase")
  .meta({
    description: "EVM address (any case on input, checksummed on output)",
    example: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
  });

const AMOUNT_TYPE = "must be a decimal string of a non-negative integer, in smallest units";

const decimalInteger = z
  .string()
  // abort: zod runs later checks after a failed one, and BigInt() throws on non-digits.
  .regex(/^(0|[1-9][0-9]*)$/, { message: AMOUNT_TYPE, abort: true })
  .refine((v) => v.length <= 78 && BigInt(v) <= MAX_UINT256, "must fit in uint256");

/**
 * An integer amount in smallest units: a decimal string, or a JSON number when it is a safe
 * integer (larger numbers lose precision in JSON, so they must be strings). Output: string.
 */
export const Amount = z
  .union(
    [
      decimalInteger,
      z
        .number(AMOUNT_TYPE)
        // zod's int() also refuses numbers beyond 2^53 - 1, which JSON cannot carry exactly.
        .int("must be an integer of at most 2^53 - 1 (send larger amounts as decimal strings)")
        .nonnegative("must not be negative"),
    ],
    AMOUNT_TYPE,
  )
  .transform((v) => String(v))
  .meta({ description: "Integer amount in smallest units, as a decimal string", example: "1000000" });

/** An amount that must be above zero. */
export const PositiveAmount = Amount.refine((v) => v !== "0", "must be greater than 0");

/** A request id or similar uint256 counter. */
export const Uint = Amount;

/**
 * A campaign id: 0x + 64 hex digits used as is, or a short text label (1-64 characters)
 * hashed with keccak256 (the response says which).
 */
export const CampaignId = z
  .string()
  .min(1, "must not be empty")
  .max(66, "must be 0x + 64 hex digits or a label of at most 64 characters")
  .refine(
    (v) => /^0x[0-9a-fA-F]{64}$/.test(v) || (!v.startsWith("0x") && v.length <= 64 && /^[\x20-\x7e]+$/.test(v)),
    "must be 0x + 64 hex digits, or a printable text label of at most 64 characters not starting with 0x",
  )
  .meta({ description: "bytes32 hex, or a text label hashed with keccak256", example: "summer-2026" });

// Listing order for messages and documentation; the set is the program's contracts.
export const CONTRACT_NAMES = [
  "factory",
  "points",
  "collateralVault",
  "pspVault",
  "oracle",
] as const satisfies readonly ProgramContract[];
export type ContractName = (typeof CONTRACT_NAMES)[number];

/** A program contract by name, case-insensitive on input. */
export const ContractNameSchema = z
  .string()
  .transform((v, ctx) => {
    const found = CONTRACT_NAMES.find((n) => n.toLowerCase() === v.toLowerCase());
    if (!found) {
      ctx.addIssue({ code: "custom", message: `must be one of ${CONTRACT_NAMES.join(", ")}` });
      return z.NEVER;
    }
    return found;
  })
  .meta({ description: `One of ${CONTRACT_NAMES.join(", ")} (case-insensitive)`, example: "factory" });

// Roles come from the contracts' ABIs (derived at their build), never from a list kept here.
export { ROLE_NAMES, type RoleName };

/** A role by its full name (`MANAGER_ROLE`) or short form (`MANAGER`), case-insensitive. */
export const RoleNameSchema = z
  .string()
  .transform((v, ctx) => {
    const upper = v.toUpperCase();
    const found = ROLE_NAMES.find((n) => n === upper || n === `${upper}_ROLE`);
    if (!found) {
      ctx.addIssue({ code: "custom", message: `must be one of ${ROLE_NAMES.join(", ")} (or without _ROLE)` });
      return z.NEVER;
    }
    return found;
  })
  .meta({ description: "Role name, e.g. MANAGER_ROLE or MANAGER", example: "MANAGER_ROLE" });

/** Which program a route acts on: a program id or its Factory address. Optional everywhere. */
export const ProgramRef = z
  .string()
  .min(1)
  .max(100)
  .optional()
  .meta({ description: "Program id or Factory address; defaults to the server's only or default program" });

export const ChainIdParam = z
  .string()
  .regex(/^[1-9][0-9]{0,15}$/, "must be a positive decimal chain id")
  .meta({ example: "31337" });

export const Metadata = z.string().max(4096, "must be at most 4096 characters").default("");
