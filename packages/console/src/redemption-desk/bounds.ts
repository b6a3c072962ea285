import { formatAmount } from "../components/format/amount";
import { tokenAmount } from "../dashboard/tokenSymbol";

/** The desk's bounds for a program, as the API answers them (packages/api/README.md, Running in production). */
export interface DeskBounds {
  minAmount: string;
  gasBudgetPerDay: string;
  gasSpentToday: string;
  pausedUntil: string | null;
  reason: string | null;
  held: { requestId: string; until: string; reason: string }[];
}

/** What the desk page says of the bounds, in words. */
export interface DeskBoundsText {
  /** Gas spent today against the day's budget. */
  gas: string;
  /** Smaller requests wait for a manager. */
  minimum: string;
  /** Set while the day's budget is spent: when the desk resumes, and why it stopped. */
  paused: string | null;
  /** Per held request id: when the desk tries it again, and why it held it. */
  held: Map<string, string>;
}

const time = (iso: string) => {
  const d = new Date(iso);
  return `${d.toLocaleDateString(undefined, { day: "numeric", month: "short" })} ${d.toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit", hourCycle: "h23" })}`;
};

/** Integer text with grouped thousands (gas units have no decimals). */
const whole = (v: string) => formatAmount(v, 0);

/** `symbol`: the program's token symbol (src/dashboard/tokenSymbol.ts), null while not known. */
export function deskBoundsText(b: DeskBounds, symbol: string | null): DeskBoundsText {
  const budget = BigInt(b.gasBudgetPerDay);
  const spent = BigInt(b.gasSpentToday);
  const share = budget > 0n ? ` (${(spent * 100n) / budget}%)` : "";
  return {
    gas:
      budget === 0n
        ? "No gas budget: the automatic desk sends nothing for this program."
        : `Gas today: ${whole(b.gasSpentToday)} of ${whole(b.gasBudgetPerDay)}${share}, counted from 00:00 UTC.`,
    minimum: `Requests under ${tokenAmount(b.minAmount, 18, symbol)} are finalized only when a manager approves them.`,
    paused: b.pausedUntil
      ? `The desk is paused for this program until ${time(b.pausedUntil)}${b.reason ? `: ${b.reason}` : "."}`
      : null,
    held: new Map(b.held.map((h) => [h.requestId, `held until ${time(h.until)}: ${h.reason}`])),
  };
}
