import { AbiCoder, EventFragment, Indexed, ParamType, getAddress, type JsonFragment } from "ethers";
import { INTERFACES } from "@points/contracts/program/abi";
import { LEDGER_CONTRACTS } from "@points/schema";
import { chainText } from "../chain/text.js";

/**
 * The contracts whose events the ledger keeps (docs/architecture.md#the-ledger): the schema's
 * list, from which it types their events (ledger routes, webhook deliveries).
 */
export { LEDGER_CONTRACTS };
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
    const a = checksummed(value as string);
    accounts.add(a.toLowerCase());
    return a;
  }
  // Written by brands and campaign admins: decoded without ever throwing (see chainText).
  if (type.baseType === "string" && typeof value === "string" && value.startsWith("0x")) return chainText(value);
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "boolean") return value;
  return String(value);
}

// Addresses repeat (holders, minters, contracts): their checksum (a keccak256 each) is kept.
const CHECKSUMS = new Map<string, string>();
function checksummed(address: string): string {
  const key = address.toLowerCase();
  let a = CHECKSUMS.get(key);
  if (!a) {
    if (CHECKSUMS.size >= 100_000) CHECKSUMS.clear();
    a = getAddress(key);
    CHECKSUMS.set(key, a);
  }
  return a;
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
  /** The types of its data (non-indexed inputs), strings read as bytes. */
  dataTypes: ParamType[];
}

/** topic0 -> event, per contract. */
const EVENTS = Object.fromEntries(
  LEDGER_CONTRACTS.map((contract) => {
    const byTopic = new Map<string, EventEntry>();
    INTERFACES[contract].forEachEvent((declared) => {
      const json = JSON.parse(declared.format("json")) as JsonFragment;
      const dataTypes = (json.inputs ?? [])
        .filter((i) => !(i as Param).indexed)
        .map((i) => {
          const { indexed: _, ...param } = asBytes(i as Param);
          return ParamType.from(param as JsonFragment);
        });
      byTopic.set(declared.topicHash, { declared, dataTypes });
    });
    return [contract, byTopic];
  }),
) as Record<LedgerContract, Map<string, EventEntry>>;

const CODER = AbiCoder.defaultAbiCoder();

/**
 * An indexed argument from its topic: static values read straight from the 32 bytes (the ABI
 * coder costs tens of microseconds a value, and backfills decode millions), dynamic ones are
 * only their hash.
 */
function fromTopic(type: ParamType, topic: string): unknown {
  if (type.isArray() || type.isTuple() || type.baseType === "string" || type.baseType === "bytes") {
    return new Indexed(topic);
  }
  if (type.baseType === "address") return "0x" + topic.slice(26);
  if (type.baseType === "bool") return BigInt(topic) !== 0n;
  if (type.baseType.startsWith("uint")) return BigInt(topic);
  if (/^bytes[0-9]+$/.test(type.baseType)) return topic.slice(0, 2 + 2 * Number(type.baseType.slice(5)));
  return CODER.decode([type], topic)[0];
}

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
    const data = CODER.decode(entry.dataTypes, log.data);
    let [d, t] = [0, 1];
    const values = entry.declared.inputs.map((input) =>
      input.indexed ? fromTopic(input, log.topics[t++]!) : data[d++],
    );
    if (t !== log.topics.length) return raw;
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
