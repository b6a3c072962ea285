import { z } from "zod";
import { keccak_256 } from "@noble/hashes/sha3.js";
import {
  CONTRACT_ROLES as PROGRAM_CONTRACT_ROLES,
  ROLE_NAMES,
  type ProgramContract,
  type RoleName,
} from "./generated/program.js";

/** Largest uint256. Amounts above it are refused at validation, not by the chain. */
export const MAX_UINT256 = 2n ** 256n - 1n;

/** EIP-55: the case of each hex letter is a bit of keccak256 of the lowercase hex. */
export function isChecksumValid(address: string): boolean {
  const hex = address.slice(2);
  const lower = hex.toLowerCase();
  if (hex === lower || hex === hex.toUpperCase()) return true;
  const hash = keccak_256(Uint8Array.from(lower, (c) => c.charCodeAt(0)));
  for (let i = 0; i < 40; i++) {
    // keccak256 gives 32 bytes and i >> 1 stays under 20; `c` is "" past a short address's end.
    const nibble = (hash[i >> 1]! >> (i % 2 === 0 ? 4 : 0)) & 0xf;
    const c = hex.charAt(i);
    if (c >= "a" && c <= "f" && nibble >= 8) return false;
    if (c >= "A" && c <= "F" && nibble < 8) return false;
  }
  return true;
}

/**
 * Text the database can hold: no NUL and no unpaired UTF-16 surrogate (a pair is one character).
 * The pattern reads the same with or without JSON Schema's Unicode mode, so the document carries
 * it as is and a generated client checks what the server checks.
 */
export const SAFE_TEXT_PATTERN = /^(?:[^\u0000\uD800-\uDFFF]|[\uD800-\uDBFF][\uDC00-\uDFFF])*$/;
export const SAFE_TEXT_MESSAGE = "must not contain NUL characters or unpaired UTF-16 surrogates";
export const isSafeText = (v: string) => SAFE_TEXT_PATTERN.test(v);

const SAFE_CHAR = SAFE_TEXT_PATTERN.source.slice(1, -2);

/**
 * Free text trimmed of surrounding white space; `nonBlank` needs a character besides white space
 * (the pattern says so, since a length of 1 would let "  " through).
 */
export const TrimmedText = (max: number, nonBlank: boolean) =>
  z
    .string()
    .trim()
    .min(nonBlank ? 1 : 0, "must not be empty")
    .max(max, `must be at most ${max} characters`)
    .regex(
      nonBlank
        ? new RegExp(`^\\s*(?:[^\\s\\u0000\\uD800-\\uDFFF]|[\\uD800-\\uDBFF][\\uDC00-\\uDFFF])${SAFE_CHAR}*$`)
        : SAFE_TEXT_PATTERN,
      nonBlank ? `must not be blank; ${SAFE_TEXT_MESSAGE}` : SAFE_TEXT_MESSAGE,
    );

/** The shared string primitive of free text: every input string that has no stricter pattern. */
export const SafeText = (max: number, min = 0) =>
  z
    .string()
    .min(min, min === 1 ? "must not be empty" : `must be at least ${min} characters`)
    .max(max, `must be at most ${max} characters`)
    .regex(SAFE_TEXT_PATTERN, SAFE_TEXT_MESSAGE);

/**
 * A free-text path segment: URL parsers collapse `.` and `..`, so a request can never carry
 * them to the route; they are refused rather than described as usable.
 */
export const PathText = (max: number) =>
  z
    .string()
    .min(1, "must not be empty")
    .max(max, `must be at most ${max} characters`)
    .refine((v) => v !== "." && v !== "..", "must not be . or .. (URL parsers remove such segments)")
    .refine(isSafeText, SAFE_TEXT_MESSAGE)
    .meta({ pattern: `^(?!\\.\\.?$)${SAFE_CHAR}+$` });

/**
 * An EVM address: all lowercase, all uppercase, or mixed case with a valid EIP-55 checksum (a
 * wrong checksum is most likely a typo). Responses always checksum. The `eip55-address` format
 * names the checksum rule, which a pattern cannot state.
 */
export const Address = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, "must be an address: 0x followed by 40 hex digits")
  .refine(isChecksumValid, "has a wrong EIP-55 checksum (mixed case): check for a typo, or send it in lowercase")
  .meta({
    description: "EVM address: all lower, all upper, or a valid EIP-55 checksum (responses are checksummed)",
    format: "eip55-address",
    example: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
  });

const AMOUNT_TYPE = "must be a decimal string of a non-negative integer, in smallest units";
const POSITIVE_TYPE = "must be a decimal string of a positive integer, in smallest units";

const decimalInteger = (positive: boolean) =>
  z
    .string()
    // abort: zod runs later checks after a failed one, and BigInt() throws on non-digits.
    .regex(positive ? /^[1-9][0-9]*$/ : /^(0|[1-9][0-9]*)$/, {
      message: positive ? POSITIVE_TYPE : AMOUNT_TYPE,
      abort: true,
    })
    .max(78, "must fit in uint256")
    .refine((v) => BigInt(v) <= MAX_UINT256, "must fit in uint256")
    .meta({ format: "uint256" });

/**
 * An integer amount in smallest units: a decimal string up to 2^256 - 1 (the `uint256` format),
 * or a JSON number when it is a safe integer (larger numbers lose precision in JSON, so they must
 * be strings). Output: string.
 */
const amount = (positive: boolean) =>
  z
    .union(
      [
        decimalInteger(positive),
        z
          .number(positive ? POSITIVE_TYPE : AMOUNT_TYPE)
          // zod's int() also refuses numbers beyond 2^53 - 1, which JSON cannot carry exactly.
          .int("must be an integer of at most 2^53 - 1 (send larger amounts as decimal strings)")
          .min(positive ? 1 : 0, positive ? "must be greater than 0" : "must not be negative")
          .max(Number.MAX_SAFE_INTEGER, "must be at most 2^53 - 1 (send larger amounts as decimal strings)"),
      ],
      positive ? POSITIVE_TYPE : AMOUNT_TYPE,
    )
    .transform((v) => String(v));

/** An integer amount where 0 is allowed (a budget, a limit). */
export const Amount = amount(false).meta({
  description: "Integer amount in smallest units (0 allowed), as a decimal string",
  example: "1000000",
});

/** An amount that must be above zero. */
export const PositiveAmount = amount(true).meta({
  description: "Integer amount in smallest units, greater than 0, as a decimal string",
  example: "1000000",
});

/** A request id or similar uint256 counter. */
export const Uint = amount(false).meta({ description: "uint256 counter, as a decimal string", example: "1" });

/**
 * An integer the API answers (an amount in smallest units, a supply, a counter): a uint256 as a
 * decimal string, exact whatever its size. The SDK's `withBigints` turns these fields into bigint.
 */
export const UintText = z
  .string()
  .meta({ format: "uint256", description: "uint256 as a decimal string (smallest units)", example: "1000000" });

/**
 * A text label of a campaign: 1-64 printable ASCII characters, not starting with 0x (that is
 * the hex form), and not `.` or `..` (URL parsers collapse them, so a path could never carry
 * them). Written without look-ahead, so any JSON Schema tool can use it.
 */
const CAMPAIGN_LABEL =
  "[\\x20-\\x2d\\x2f\\x31-\\x7e][\\x20-\\x7e]{0,63}" +
  "|0(?:[\\x20-\\x77\\x79-\\x7e][\\x20-\\x7e]{0,62})?" +
  "|\\.(?:[\\x20-\\x2d\\x2f-\\x7e][\\x20-\\x7e]{0,62}|\\.[\\x20-\\x7e]{1,62})";
export const CAMPAIGN_ID_PATTERN = new RegExp(`^(?:0x[0-9a-fA-F]{64}|${CAMPAIGN_LABEL})$`);

/**
 * A campaign id: 0x + 64 hex digits used as is, or a short text label hashed with keccak256
 * (the response says which).
 */
export const CampaignId = z
  .string()
  .regex(
    CAMPAIGN_ID_PATTERN,
    "must be 0x + 64 hex digits, or a printable text label of at most 64 characters not starting with 0x (and not . or ..)",
  )
  .meta({
    description:
      "0x + 64 hex digits (bytes32, used as is), or a label of 1-64 printable ASCII characters that does not start with 0x and is not . or .. (hashed with keccak256). Except on create-campaign, an unknown campaign is 404 NOT_FOUND (CampaignNotFound)",
    example: "summer-2026",
  });

/** Every letter in either case: a pattern for names matched case-insensitively. */
const anyCase = (name: string) => name.replace(/[A-Za-z]/g, (c) => `[${c.toUpperCase()}${c.toLowerCase()}]`);

const aliasesDescription = (aliases: string) => `Deprecated aliases: ${aliases}`;

/** How a set of names reads in the document: the canonical enum, then the deprecated aliases. */
const namesJsonSchema = (names: readonly string[], aliasPattern: string, aliases: string) => ({
  anyOf: [
    { type: "string", enum: [...names] },
    {
      type: "string",
      pattern: `^(?:${aliasPattern})$`,
      deprecated: true,
      description: aliasesDescription(aliases),
    },
  ],
});

/**
 * A fixed set of canonical names, plus deprecated aliases the server still accepts for one
 * release; both are in the document (the aliases as `x-aliases` and a deprecated alternative).
 */
function namesWithAliases<T extends string>(
  names: readonly T[],
  resolve: (v: string) => T | undefined,
  aliasPattern: string,
  aliases: string,
  description: string,
  // Declared rather than inferred: the inferred zod type does not survive declaration emit.
): z.ZodType<T, string> {
  return z
    .union([
      z.enum(names as [T, ...T[]]),
      z
        .string()
        .regex(new RegExp(`^(?:${aliasPattern})$`), `must be one of ${names.join(", ")}`)
        .meta({ deprecated: true, description: aliasesDescription(aliases) }),
    ])
    .transform((v) => resolve(v) as T)
    .meta({ description, "x-aliases": { deprecated: true, accepted: aliases } });
}

// Listing order for messages and documentation; the set is the program's contracts.
export const CONTRACT_NAMES = [
  "factory",
  "points",
  "collateralVault",
  "pspVault",
  "oracle",
] as const satisfies readonly ProgramContract[];
export type ContractName = (typeof CONTRACT_NAMES)[number];

const CONTRACT_ALIASES = "the same names in any letter case";
const contractAliasPattern = (names: readonly string[]) => names.map(anyCase).join("|");

/** A program contract by its canonical name among `names`; other letter cases are deprecated aliases. */
export const contractNameSchema = <T extends ContractName>(names: readonly T[]) =>
  namesWithAliases(
    names,
    (v) => names.find((n) => n.toLowerCase() === v.toLowerCase()),
    contractAliasPattern(names),
    CONTRACT_ALIASES,
    `One of ${names.join(", ")}`,
  ).meta({ example: names[0] });

export const ContractNameSchema = contractNameSchema(CONTRACT_NAMES);

// Roles come from the contracts' ABIs (derived at their build), never from a list kept here.
export { ROLE_NAMES, type RoleName };

/** Roles each contract defines (derived from the ABIs): granting another is refused at validation. */
export const CONTRACT_ROLES = Object.fromEntries(
  CONTRACT_NAMES.map((c) => [c, PROGRAM_CONTRACT_ROLES[c] as readonly RoleName[]]),
) as Record<ContractName, readonly RoleName[]>;

const ROLE_ALIASES = "the same names in any letter case, with or without the _ROLE suffix";
const roleAliasPattern = (names: readonly string[]) =>
  names.map((n) => `${anyCase(n.replace(/_ROLE$/, ""))}(?:${anyCase("_ROLE")})?`).join("|");

/**
 * A role by its canonical name (`MANAGER_ROLE`), among `names` (every role by default). The
 * short form (`MANAGER`) and other letter cases are deprecated aliases.
 */
export const roleNameSchema = <T extends RoleName>(names: readonly T[]) =>
  namesWithAliases(
    names,
    (v) => {
      const upper = v.toUpperCase();
      return names.find((n) => n === upper || n === `${upper}_ROLE`);
    },
    roleAliasPattern(names),
    ROLE_ALIASES,
    `One of ${names.join(", ")}`,
  ).meta({ example: names.includes("MANAGER_ROLE" as T) ? "MANAGER_ROLE" : names[0] });

export const RoleNameSchema = roleNameSchema(ROLE_NAMES);

/**
 * `{contract, role}` where the role is one the contract defines: checked in one place with an
 * error on `role`, and described per contract in the document (an `anyOf` of pairs).
 */
export const withContractRole = <
  T extends z.ZodObject<{ contract: typeof ContractNameSchema; role: typeof RoleNameSchema }>,
>(
  object: T,
) =>
  object
    .superRefine((v, ctx) => {
      const { contract, role } = v as { contract: ContractName; role: RoleName };
      // Runs even when a field already failed; only a known pair is checked.
      if (!(contract in CONTRACT_ROLES) || typeof role !== "string") return;
      if (!CONTRACT_ROLES[contract].includes(role)) {
        ctx.addIssue({
          code: "custom",
          path: ["role"],
          message: `${contract} has no ${role}; it defines ${CONTRACT_ROLES[contract].join(", ")}`,
        });
      }
    })
    .meta({
      anyOf: CONTRACT_NAMES.map((c) => ({
        properties: {
          contract: namesJsonSchema([c], contractAliasPattern([c]), CONTRACT_ALIASES),
          role: namesJsonSchema(CONTRACT_ROLES[c], roleAliasPattern(CONTRACT_ROLES[c]), ROLE_ALIASES),
        },
      })),
    });

/** Which program a route acts on: a program id or its Factory address. Optional everywhere. */
export const ProgramRef = SafeText(100, 1)
  .optional()
  .meta({ description: "Program id or Factory address; defaults to the server's only or default program" });

export const ChainIdParam = z
  .string()
  .regex(/^[1-9][0-9]{0,15}$/, "must be a positive decimal chain id")
  .meta({ example: "31337" });

/**
 * Marks a chain id the server refuses unless it is one of its configured chains: the served
 * document lists them as an enum (they are known only when the service starts).
 */
export const CONFIGURED_CHAINS = "x-configured-chains";
export const ConfiguredChainIdParam = ChainIdParam.meta({ [CONFIGURED_CHAINS]: true });

export const Metadata = SafeText(4096).default("");
