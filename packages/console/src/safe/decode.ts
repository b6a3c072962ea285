import { Interface, dataSlice, getAddress, getBytes, hexlify, toBigInt } from "ethers";
import { INTERFACES } from "@points/contracts/program/abi";
import { roleNameOf } from "@points/contracts/program";
import type { ContractName, SafeTxFields } from "@points/schema";
import { programContracts } from "../dashboard/chain";
import { CONTRACT_WORDS, roleWords } from "../dashboard/names";
import type { ProgramView } from "../dashboard/context";
import { verifiedLabel } from "../dashboard/campaignLabel";
import { durationWords, feeWords } from "../dashboard/settings/words";

/** One argument of a decoded call, typed for how a person reads it. */
export type Arg =
  | { name: string; kind: "sp"; value: string }
  | { name: string; kind: "psp"; value: string }
  /** An amount in the units of the ERC-20 at `token` (its decimals and symbol are read from it). */
  | { name: string; kind: "token"; value: string; token: string }
  | { name: string; kind: "units"; value: string }
  | { name: string; kind: "address"; value: string }
  | { name: string; kind: "addresses"; value: string[] }
  | { name: string; kind: "campaign"; value: string; label?: string }
  | { name: string; kind: "role"; value: string }
  | { name: string; kind: "text"; value: string };

/** One call a Safe transaction makes, in words; `known` is false for a call the console cannot read. */
export interface DecodedCall {
  known: boolean;
  contract: ContractName | null;
  to: string;
  fn: string;
  /** What the call does, e.g. "Create a campaign". */
  action: string;
  args: Arg[];
}

const multiSend = new Interface(["function multiSend(bytes transactions)"]);

/** Functions named in words (by contract.function where one name means two things); any other reads as its name split into words. */
const ACTIONS: Record<string, string> = {
  acceptDefaultAdminTransfer: "Accept the admin role",
  beginDefaultAdminTransfer: "Begin handing over the admin role",
  cancelDefaultAdminTransfer: "Cancel the admin handover",
  requestRedeem: "Request a redemption",
  cancelRedeem: "Cancel a redemption request",
  rejectRedeem: "Reject a redemption request",
  finalizeRedeem: "Finalize a redemption",
  finalizeRedeemBatch: "Finalize redemptions",
  setRedeemDelay: "Set the redeem delay",
  setFees: "Set the fees",
  setFeeReceiver: "Set the fee receiver",
  grantRole: "Grant a role",
  revokeRole: "Revoke a role",
  pause: "Pause",
  unpause: "Unpause",
  createCampaign: "Create a campaign",
  fundCampaign: "Fund a campaign",
  closeCampaign: "Close a campaign",
  pauseCampaign: "Pause a campaign",
  resumeCampaign: "Resume a campaign",
  setMinter: "Configure a delegated minter",
  setCampaignAdmin: "Set a campaign admin",
  updateSettlementWhitelist: "Change the settlement allowlist",
  updateTransferWhitelist: "Change the pSP transfer allowlist",
  mint: "Issue",
  // The Factory's mint takes collateral and mints SP; the Campaign vault's issues pSP.
  "factory.mint": "Mint SP from collateral",
  mintBatch: "Issue to several holders",
  settle: "Settle pSP",
  settleBatch: "Settle pSP of several holders",
  expire: "Expire pSP",
  expireBatch: "Expire pSP of several holders",
  transfer: "Transfer",
  upgradeToAndCall: "Upgrade the contract",
};
const words = (fn: string) => {
  const w = fn.replace(/([A-Z])/g, " $1").toLowerCase();
  return w.charAt(0).toUpperCase() + w.slice(1);
};
/** uint256 arguments that are SP (18 decimals) on the Points token and the campaign vault. */
const SP_NAMES = new Set(["amount", "amounts", "value", "spBudget", "limit"]);

/** How one argument reads when its ABI name or type alone would say it wrongly. */
type ArgSpec = {
  name?: string;
  kind?: "sp" | "psp" | "request" | "duration" | "bps" | "text";
  /** An amount in the units of the token passed as argument `tokenArg`. */
  tokenArg?: number;
};
const PSP_AMOUNT: ArgSpec = { kind: "psp" };
/**
 * Per function, by argument position: pSP (the campaign vault's issued points) is not the
 * token's SP, collateral is in its own token's decimals, and some Factory arguments have no
 * name in the ABI at all.
 */
const ARG_SPECS: Record<string, (ArgSpec | undefined)[]> = {
  "pspVault.mint": [undefined, undefined, PSP_AMOUNT],
  "pspVault.mintBatch": [undefined, undefined, PSP_AMOUNT],
  "pspVault.settle": [undefined, undefined, PSP_AMOUNT],
  "pspVault.settleBatch": [undefined, undefined, PSP_AMOUNT],
  "pspVault.expire": [undefined, PSP_AMOUNT],
  "pspVault.expireBatch": [undefined, PSP_AMOUNT],
  "pspVault.transfer": [undefined, undefined, undefined, PSP_AMOUNT],
  "pspVault.setMinter": [undefined, undefined, { name: "Limit", kind: "psp" }],
  "factory.mint": [{ name: "Collateral" }, { name: "Collateral paid", tokenArg: 0 }, { name: "SP goes to" }],
  "factory.requestRedeem": [
    { name: "Collateral" },
    { name: "Pays to" },
    { name: "Amount", kind: "sp" },
    { name: "Basket mode expected", kind: "text" },
  ],
  "factory.cancelRedeem": [{ name: "Request", kind: "request" }],
  "factory.rejectRedeem": [{ name: "Request", kind: "request" }],
  "factory.finalizeRedeem": [{ name: "Request", kind: "request" }],
  "factory.finalizeRedeemBatch": [{ name: "Requests", kind: "request" }],
  "factory.setRedeemDelay": [{ name: "Redeem delay", kind: "duration" }],
  "factory.setFees": [
    { name: "Mint fee", kind: "bps" },
    { name: "Redeem fee", kind: "bps" },
  ],
  "factory.setFeeReceiver": [{ name: "Fee receiver" }],
};
/** Argument names in words. */
const ARG_WORDS: Record<string, string> = {
  campaignId: "Campaign",
  spBudget: "Budget",
  settlementDestinations: "Settlement destinations",
  transferWhitelist: "pSP transfer allowlist",
  newAdmin: "New admin",
  returnTo: "Unused budget returns to",
  newImplementation: "New implementation",
};

/**
 * A Safe transaction in words: a plain call is one call; a delegatecall to MultiSendCallOnly
 * is its calls one by one (docs/architecture.md#safe-multisig). Campaign names come from `names`
 * or from a campaign created in the same transaction (its verified label).
 */
export function decodeSafeTx(
  program: ProgramView,
  tx: SafeTxFields,
  names: Record<string, string> = {},
): DecodedCall[] {
  const calls = tx.operation === 1 ? unpackMultiSend(tx.data) : [{ to: tx.to, data: tx.data }];
  if (!calls) return [unknownCall(tx.to, tx.data)];
  return decodeCalls(program, calls, names);
}

/** Calls to the program's contracts in words; a campaign created among them names itself in the calls after it. */
export function decodeCalls(
  program: ProgramView,
  calls: { to: string; data: string }[],
  names: Record<string, string> = {},
): DecodedCall[] {
  const decoded = calls.map((c) => decodeCall(program, c.to, c.data));
  // A campaign created here names itself in the calls after it.
  const created: Record<string, string> = {};
  for (const d of decoded) {
    if (d.fn !== "createCampaign") continue;
    const id = d.args.find((a) => a.kind === "campaign")?.value;
    const meta = d.args.find((a) => a.name === "Metadata")?.value;
    const label = id && typeof meta === "string" ? verifiedLabel(id, meta) : undefined;
    if (id && label) created[id.toLowerCase()] = label;
  }
  const all = { ...Object.fromEntries(Object.entries(names).map(([k, v]) => [k.toLowerCase(), v])), ...created };
  for (const d of decoded) for (const a of d.args) if (a.kind === "campaign") a.label = all[a.value.toLowerCase()];
  return decoded;
}

function unknownCall(to: string, data: string): DecodedCall {
  return {
    known: false,
    contract: null,
    to: getAddress(to),
    fn: "",
    action: "A call the console cannot read",
    args: [{ name: "Data", kind: "text", value: `${(data.length - 2) / 2} bytes` }],
  };
}

function decodeCall(program: ProgramView, to: string, data: string): DecodedCall {
  const contract = programContracts(program).find(([, a]) => a.toLowerCase() === to.toLowerCase())?.[0] ?? null;
  const iface = contract ? INTERFACES[contract] : null;
  const parsed = iface && data.length >= 10 ? iface.parseTransaction({ data }) : null;
  if (!contract || !parsed) return unknownCall(to, data);
  const spContract = contract === "points" || contract === "pspVault";
  const specs = ARG_SPECS[`${contract}.${parsed.name}`] ?? [];
  const args: Arg[] = parsed.fragment.inputs.map((input, i) => {
    const v = parsed.args[i];
    const spec = specs[i];
    const name = spec?.name ?? ARG_WORDS[input.name] ?? words(input.name || `argument ${i + 1}`);
    const nums = () => (Array.isArray(v) ? [...(v as bigint[])] : [v as bigint]).map((x) => x.toString());
    if (spec?.tokenArg !== undefined)
      return { name, kind: "token", value: nums().join(","), token: getAddress(String(parsed.args[spec.tokenArg])) };
    if (spec?.kind === "sp" || spec?.kind === "psp") return { name, kind: spec.kind, value: nums().join(",") };
    if (spec?.kind === "request")
      return {
        name,
        kind: "text",
        value: nums()
          .map((n) => `#${n}`)
          .join(", "),
      };
    if (spec?.kind === "duration") return { name, kind: "text", value: durationWords(Number(v)) };
    if (spec?.kind === "bps") return { name, kind: "text", value: feeWords(Number(v)) };
    if (spec?.kind === "text" && input.type === "bool") return { name, kind: "text", value: v ? "yes" : "no" };
    if (input.name === "campaignId") return { name, kind: "campaign", value: String(v) };
    if (input.name === "role" && input.type === "bytes32")
      return { name, kind: "role", value: roleNameOf(String(v)) ?? String(v) };
    if (input.type === "address") return { name, kind: "address", value: getAddress(String(v)) };
    if (input.type === "address[]")
      return { name, kind: "addresses", value: (v as string[]).map((a) => getAddress(a)) };
    if (input.type === "uint256" || input.type === "uint256[]") {
      const list = input.type === "uint256" ? [v as bigint] : [...(v as bigint[])];
      const kind = spContract && SP_NAMES.has(input.name) ? "sp" : "units";
      return { name, kind, value: list.map((x) => x.toString()).join(",") };
    }
    if (input.type === "bool") return { name, kind: "text", value: v ? "yes" : "no" };
    if (input.type === "string") return { name, kind: "text", value: String(v) };
    return { name, kind: "text", value: typeof v === "bigint" ? v.toString() : String(v) };
  });
  return {
    known: true,
    contract,
    to: getAddress(to),
    fn: parsed.name,
    action: ACTIONS[`${contract}.${parsed.name}`] ?? ACTIONS[parsed.name] ?? words(parsed.name),
    args,
  };
}

/** The accounts a review names besides the program's contracts: the connected wallet and the Safes holding roles. */
export interface KnownAccounts {
  wallet?: string | null;
  safes?: { address: string; roles: { role: string }[] }[];
}

/** What a review calls the connected wallet. */
export const YOUR_WALLET = "your wallet";

/**
 * An address's name: one of the program's contracts ("Campaign vault"), the connected wallet
 * ("your wallet"), or a Safe by the roles it holds ("Admin and Manager Safe"); else null.
 */
export function addressName(program: ProgramView, address: string, known: KnownAccounts = {}): string | null {
  const same = (a: string | null | undefined) => !!a && a.toLowerCase() === address.toLowerCase();
  const hit = programContracts(program).find(([, a]) => same(a));
  if (hit) return CONTRACT_WORDS[hit[0]];
  if (same(known.wallet)) return YOUR_WALLET;
  const safe = known.safes?.find((s) => same(s.address));
  return safe ? `${[...new Set(safe.roles.map((r) => roleWords(r.role)))].join(" and ")} Safe` : null;
}

/**
 * multiSend(bytes)'s packed calls (operation uint8, to address, value uint256, data length
 * uint256, data), or null when the data is not one; MultiSendCallOnly runs only operation 0.
 */
export function unpackMultiSend(data: string): { to: string; data: string }[] | null {
  let packed: Uint8Array;
  try {
    packed = getBytes(multiSend.decodeFunctionData("multiSend", data)[0] as string);
  } catch {
    return null;
  }
  const out: { to: string; data: string }[] = [];
  const hex = hexlify(packed);
  for (let i = 0; i < packed.length;) {
    if (i + 85 > packed.length) return null;
    const to = dataSlice(hex, i + 1, i + 21);
    const len = Number(toBigInt(dataSlice(hex, i + 53, i + 85)));
    if (i + 85 + len > packed.length) return null;
    out.push({ to: getAddress(to), data: dataSlice(hex, i + 85, i + 85 + len) });
    i += 85 + len;
  }
  return out;
}
