/**
 * The ABIs of the program's contracts (generated from the Hardhat artifacts at build time),
 * their parsed ethers Interfaces, and the one revert decoder the API and the deployer share.
 * Needs ethers; browser code imports `@points/contracts/program` instead.
 */
import { ErrorFragment, Interface, isHexString, type Result } from "ethers";
import * as GENERATED from "./generated/abis.js";
import type { ContractKey } from "./index.js";

/**
 * Contract key (and "asset": any ERC-20 collateral, with OpenZeppelin's ERC-20 errors) -> ABI.
 * The order is the order in which a revert's declarers are listed.
 */
export const ABIS = {
  points: GENERATED.points,
  factory: GENERATED.factory,
  collateralVault: GENERATED.collateralVault,
  pspVault: GENERATED.pspVault,
  oracle: GENERATED.oracle,
  asset: GENERATED.asset,
  programFactory: GENERATED.programFactory,
};
export type AbiKey = keyof typeof ABIS;

/** Parsed once; building a Contract over these never re-parses an ABI. */
export const INTERFACES = Object.fromEntries(
  Object.entries(ABIS).map(([k, abi]) => [k, new Interface(abi as unknown as string)]),
) as Record<AbiKey, Interface>;

/**
 * A decoded revert: its name, named arguments (as text), positional values, and which contract
 * raised it. Revert data does not say which contract reverted: `contract` is the called
 * contract when it declares the error, else the only declarer, else every declarer
 * ("points or asset"); `declaredBy` lists them.
 */
export interface DecodedRevert {
  contract: string;
  declaredBy?: string[];
  name: string;
  args: Record<string, string | boolean>;
  selector: string;
}

const STANDARD = new Interface(["error Error(string message)", "error Panic(uint256 code)"]);

/** Every custom error by selector, with the contracts declaring it (ProgramFactory last). */
const BY_SELECTOR = new Map<string, { fragment: ErrorFragment; contracts: AbiKey[] }>();
for (const [contract, iface] of Object.entries(INTERFACES)) {
  iface.forEachError((fragment) => {
    const entry = BY_SELECTOR.get(fragment.selector) ?? { fragment, contracts: [] };
    entry.contracts.push(contract as AbiKey);
    BY_SELECTOR.set(fragment.selector, entry);
  });
}

const plain = (v: unknown): string | boolean => (typeof v === "boolean" ? v : String(v));

function named(fragment: ErrorFragment, values: Result): Record<string, string | boolean> {
  return Object.fromEntries(fragment.inputs.map((input, i) => [input.name || String(i), plain(values[i])]));
}

/** A decoded revert's arguments by position (every error of the platform names its inputs). */
export const revertValues = (d: DecodedRevert): (string | boolean)[] => Object.values(d.args);

/**
 * Decodes revert data, preferring the contract that was called when several declare the error,
 * then `alsoCalled` (a token the call moves, whose ERC-20 errors every token shares).
 * ProgramFactory counts as a declarer only when it was called or is the only one.
 */
export function decodeRevert(
  data: string | undefined,
  called?: ContractKey | "asset",
  alsoCalled?: ContractKey | "asset",
): DecodedRevert | undefined {
  if (!data || !isHexString(data) || data.length < 10) return undefined;
  const selector = data.slice(0, 10).toLowerCase();
  try {
    for (const f of [STANDARD.getError("Error")!, STANDARD.getError("Panic")!]) {
      if (f.selector === selector) {
        const args = named(f, STANDARD.decodeErrorResult(f, data));
        return { contract: called ?? "unknown", name: f.name, args, selector };
      }
    }
    const entry = BY_SELECTOR.get(selector);
    if (!entry) return undefined;
    const others = entry.contracts.filter((c) => c !== "programFactory");
    const declaredBy: string[] =
      others.length > 0 && called !== "programFactory" && alsoCalled !== "programFactory" ? others : entry.contracts;
    const contract = [called, alsoCalled].find((c) => c && declaredBy.includes(c)) ?? declaredBy.join(" or ");
    const first = entry.contracts[0];
    if (first === undefined) return undefined;
    const values = INTERFACES[first].decodeErrorResult(entry.fragment, data);
    return { contract, declaredBy, name: entry.fragment.name, args: named(entry.fragment, values), selector };
  } catch {
    return undefined;
  }
}

/** Revert data carried by an ethers error from eth_call / eth_estimateGas, if any. */
export function revertData(e: unknown): string | undefined {
  const err = e as { data?: unknown; info?: { error?: { data?: unknown } }; error?: { data?: unknown } };
  for (const d of [err.data, err.info?.error?.data, err.error?.data]) {
    if (typeof d === "string" && isHexString(d)) return d;
    if (d && typeof d === "object" && typeof (d as { data?: unknown }).data === "string")
      return (d as { data: string }).data;
  }
  return undefined;
}
