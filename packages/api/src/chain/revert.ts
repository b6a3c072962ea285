import { ErrorFragment, Interface, isHexString, type Result } from "ethers";
import type { ContractName } from "@points/schema";
import { ApiError } from "../errors.js";
import { INTERFACES, roleName } from "./contracts.js";

/**
 * A decoded revert: its name, named arguments, and which contract raised it. Revert data does
 * not say which contract reverted: `contract` is the called contract when it declares the
 * error, else the only declarer, else every declarer ("points or asset"); `declaredBy` lists them.
 */
export interface DecodedRevert {
  contract: string;
  declaredBy?: string[];
  name: string;
  args: Record<string, string | boolean>;
  selector: string;
}

const STANDARD = new Interface(["error Error(string message)", "error Panic(uint256 code)"]);

/** Every custom error of every program contract by selector, with the contracts declaring it. */
const BY_SELECTOR = new Map<string, { fragment: ErrorFragment; contracts: string[] }>();
for (const [contract, iface] of Object.entries(INTERFACES)) {
  iface.forEachError((fragment) => {
    const entry = BY_SELECTOR.get(fragment.selector) ?? { fragment, contracts: [] };
    entry.contracts.push(contract);
    BY_SELECTOR.set(fragment.selector, entry);
  });
}

const plain = (v: unknown): string | boolean => (typeof v === "boolean" ? v : String(v));

function named(fragment: ErrorFragment, values: Result): Record<string, string | boolean> {
  return Object.fromEntries(fragment.inputs.map((input, i) => [input.name || String(i), plain(values[i])]));
}

/**
 * Decodes revert data, preferring the contract that was called when several declare the error,
 * then `alsoCalled` (a token the call moves, whose ERC-20 errors every token shares).
 */
export function decodeRevert(
  data: string,
  called: ContractName | "asset",
  alsoCalled?: ContractName | "asset",
): DecodedRevert | undefined {
  if (!isHexString(data) || data.length < 10) return undefined;
  const selector = data.slice(0, 10).toLowerCase();
  for (const f of [STANDARD.getError("Error")!, STANDARD.getError("Panic")!]) {
    if (f.selector === selector) {
      return { contract: called, name: f.name, args: named(f, STANDARD.decodeErrorResult(f, data)), selector };
    }
  }
  const entry = BY_SELECTOR.get(selector);
  if (!entry) return undefined;
  const declaredBy = entry.contracts;
  // The called contract first, then the token the call moves, then the only declarer.
  const contract =
    [called, alsoCalled].find((c) => c && declaredBy.includes(c)) ??
    (declaredBy.length === 1 ? declaredBy[0] : declaredBy.join(" or "));
  const values = INTERFACES[declaredBy[0] as ContractName].decodeErrorResult(entry.fragment, data);
  return { contract, declaredBy, name: entry.fragment.name, args: named(entry.fragment, values), selector };
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

/**
 * Turns a simulation failure into the API's answer: a missing on-chain role is 403
 * MISSING_ROLE naming contract, role and account; any other revert is 422 WOULD_REVERT with
 * the decoded error; a dead node is left to the caller (CHAIN_UNAVAILABLE).
 */
export function revertToApiError(
  e: unknown,
  called: ContractName | "asset",
  alsoCalled?: ContractName | "asset",
): ApiError | undefined {
  const code = (e as { code?: string }).code;
  const data = revertData(e);
  if (code !== "CALL_EXCEPTION" && data === undefined) return undefined;
  const decoded = data ? decodeRevert(data, called, alsoCalled) : undefined;
  if (!decoded) {
    const reason = (e as { shortMessage?: string }).shortMessage ?? "execution reverted";
    return new ApiError("WOULD_REVERT", `the transaction would revert: ${reason}`, {
      contract: called,
      name: null,
      data,
    });
  }
  if (decoded.name === "AccessControlUnauthorizedAccount") {
    const role = roleName(String(decoded.args.neededRole));
    return new ApiError("MISSING_ROLE", `${decoded.args.account} lacks ${role} on ${decoded.contract}`, {
      contract: decoded.contract,
      role,
      account: decoded.args.account,
      error: decoded,
    });
  }
  if (decoded.name === "CallerNotAuthorized") {
    const role = roleName(String(decoded.args.role));
    return new ApiError(
      "MISSING_ROLE",
      `${decoded.args.caller} holds neither MANAGER_ROLE nor ${role} on ${decoded.contract}`,
      {
        contract: decoded.contract,
        role,
        anyOf: ["MANAGER_ROLE", role],
        account: decoded.args.caller,
        error: decoded,
      },
    );
  }
  const args = Object.entries(decoded.args)
    .map(([k, v]) => `${k}=${v}`)
    .join(", ");
  return new ApiError(
    "WOULD_REVERT",
    `the transaction would revert: ${decoded.contract}.${decoded.name}(${args})`,
    decoded,
  );
}
