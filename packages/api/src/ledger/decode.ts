import { EventFragment, Indexed, Interface, getAddress, type JsonFragment, type ParamType } from "ethers";
import { INTERFACES } from "@points/contracts/program/abi";
import { chainText } from "../chain/text.js";

/** The contracts whose events the ledger keeps (docs/architecture.md#the-ledger). */
export const LEDGER_CONTRACTS = [
  "points",
  "factory",
  "collateralVault",
  "pspVault",
  "oracle",
  "programFactory",
] as const;
export type LedgerContract = (typeof LEDGER_CONTRACTS)[number];

/** A JSON value of a decoded event argument: integers as decimal strings, addresses checksummed. */
export type ArgValue = string | boolean | ArgValue[] | { [name: string]: ArgValue };

/** A log decoded with its contract's ABI; `event` is null when the ABI does not declare it. */
export interface DecodedLog {
  event: string | null;
  args: Record<string, ArgValue>;
  /** Every address among the arguments (the accounts the event touches), lowercase, deduplicated. */
  accounts: string[];
  /** The `campaignId` argument, when the event has one. */
  campaignId: string | null;
}

function plain(type: ParamType, value: unknown, accounts: Set<string>): ArgValue {
  // An indexed dynamic value (string, bytes, array, tuple) is only its hash.
  if (value instanceof Indexed) return value.hash ?? "";
  if (type.isArray()) return (value as unknown[]).map((v) => plain(type.arrayChildren!, v, accounts));
  if (type.isTuple()) {
    const values = value as unknown[];
    return Object.fromEntries(type.components!.map((c, i) => [c.name || String(i), plain(c, values[i], accounts)]));
  }
  if (type.baseType === "address") {
    const a = getAddress(value as string);
    accounts.add(a.toLowerCase());
    return a;
  }
  // Written by brands and campaign admins: decoded without ever throwing (see chainText).
  if (type.baseType === "string" && typeof value === "string" && value.startsWith("0x")) return chainText(value);
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "boolean") return value;
  return String(value);
}

type Param = { type?: string; indexed?: boolean; components?: readonly Param[] };
const asBytes = (p: Param): Param => ({
  ...p,
  type: p.type?.replace(/^string(?=\[|$)/, "bytes"),
  ...(p.components ? { components: p.components.map(asBytes) } : {}),
});

interface EventEntry {
  /** The declared event (names and types as the ABI says). */
  declared: EventFragment;
  /** The same inputs with non-indexed strings read as bytes, topic check left to the lookup. */
  lenient: EventFragment;
}

/** topic0 -> event, per contract. */
const EVENTS = Object.fromEntries(
  LEDGER_CONTRACTS.map((contract) => {
    const byTopic = new Map<string, EventEntry>();
    INTERFACES[contract].forEachEvent((declared) => {
      const json = JSON.parse(declared.format("json")) as JsonFragment;
      const lenient = EventFragment.from({
        ...json,
        anonymous: true,
        inputs: (json.inputs ?? []).map((i) => ((i as Param).indexed ? i : asBytes(i as Param))),
      } as JsonFragment);
      byTopic.set(declared.topicHash, { declared, lenient });
    });
    return [contract, byTopic];
  }),
) as Record<LedgerContract, Map<string, EventEntry>>;

const CODER = new Interface([]);

/**
 * Decodes a log with the ABI of the contract that emitted it. Generic over the ABI: an event
 * added to a contract is indexed by the next build without code here. A log the ABI does not
 * declare (or that does not decode) keeps its raw topics and data with `event` null.
 */
export function decodeLog(contract: LedgerContract, log: { topics: readonly string[]; data: string }): DecodedLog {
  const entry = log.topics.length > 0 ? EVENTS[contract].get(log.topics[0]!.toLowerCase()) : undefined;
  const raw: DecodedLog = {
    event: null,
    args: { topics: [...log.topics], data: log.data },
    accounts: [],
    campaignId: null,
  };
  if (!entry) return raw;
  try {
    const values = CODER.decodeEventLog(entry.lenient, log.data, log.topics.slice(1));
    const accounts = new Set<string>();
    const args = Object.fromEntries(
      entry.declared.inputs.map((input, i) => [input.name || String(i), plain(input, values[i], accounts)]),
    );
    const campaignId = typeof args.campaignId === "string" ? args.campaignId : null;
    return { event: entry.declared.name, args, accounts: [...accounts], campaignId };
  } catch {
    return raw;
  }
}
