import { formatUnits } from "ethers";

/**
 * The pictures' figures, computed from ledger events (pure, so a unit test checks them). Amounts
 * stay bigint until the last step; a chart then plots them as token units.
 */

export interface Ev {
  blockNumber: number;
  logIndex: number;
  time: string;
  contract: string;
  event: string | null;
  campaignId?: string | null;
  args: Record<string, unknown>;
}

const ZERO = "0x0000000000000000000000000000000000000000";
const big = (v: unknown) => (typeof v === "string" && /^[0-9]+$/.test(v) ? BigInt(v) : 0n);
const seconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);
const ordered = <E extends Ev>(events: readonly E[]) =>
  [...events].sort((a, b) => a.blockNumber - b.blockNumber || a.logIndex - b.logIndex);
export const units = (v: bigint, decimals: number) => Number(formatUnits(v, decimals));

/** A running total over time: one point per block time, its value after that time's events. */
export interface Steps {
  t: number[];
  v: bigint[];
}

function running(events: readonly Ev[], delta: (e: Ev, total: bigint) => bigint | null): Steps {
  const out: Steps = { t: [], v: [] };
  let total = 0n;
  for (const e of ordered(events)) {
    const d = delta(e, total);
    if (d === null) continue;
    total += d;
    const t = seconds(e.time);
    if (out.t.at(-1) === t) out.v[out.v.length - 1] = total;
    else (out.t.push(t), out.v.push(total));
  }
  return out;
}

/** SP supply over time, from the Points token's mints (from 0x0) and burns (to 0x0). */
export const spSupply = (zeroAddressHistory: readonly Ev[]) =>
  running(zeroAddressHistory, (e) => {
    if (e.contract !== "points" || e.event !== "Transfer") return null;
    const [from, to] = [String(e.args.from).toLowerCase(), String(e.args.to).toLowerCase()];
    if (from === ZERO && to !== ZERO) return big(e.args.value);
    if (to === ZERO && from !== ZERO) return -big(e.args.value);
    return null;
  });

/** Collateral of one asset over time: deposited by mints, paid out by finalized redemptions. */
export const collateral = (assetHistory: readonly Ev[], asset: string) =>
  running(assetHistory, (e) => {
    if (e.contract !== "factory" || String(e.args.asset).toLowerCase() !== asset.toLowerCase()) return null;
    if (e.event === "Minted") return big(e.args.assetAmount);
    if (e.event === "CollateralPaid") return -big(e.args.amount);
    return null;
  });

/** A campaign's available budget over time (its burn-down): funding adds, issuing takes, closing empties. */
export const burnDown = (campaignLedger: readonly Ev[]) => {
  let closed = false;
  return running(campaignLedger, (e, available) => {
    if (e.event === "CampaignFunded") return big(e.args.amount);
    if (e.event === "PSPMinted") return -big(e.args.amount);
    // After closing, expired pSP leaves the budget instead of coming back (docs/glossary.md#budget).
    if (e.event === "PSPExpired") return closed ? null : big(e.args.amount);
    if (e.event !== "CampaignClosed") return null;
    closed = true;
    return -available;
  });
};

/** What became of a campaign's issued pSP: still outstanding, settled into SP, or expired. */
export function pspOutcome(campaignLedger: readonly Ev[]) {
  let [issued, settled, expired] = [0n, 0n, 0n];
  for (const e of campaignLedger) {
    if (e.event === "PSPMinted") issued += big(e.args.amount);
    else if (e.event === "PSPSettled") settled += big(e.args.amount);
    else if (e.event === "PSPExpired") expired += big(e.args.amount);
  }
  return { outstanding: issued - settled - expired, settled, expired };
}

/** pSP issued per UTC day per minter (the account that sent the mint), across the given ledgers. */
export function issuancePerDay(events: readonly Ev[]) {
  const byDay = new Map<number, Map<string, bigint>>();
  const minters = new Set<string>();
  for (const e of events) {
    if (e.event !== "PSPMinted") continue;
    const day = Math.floor(seconds(e.time) / 86_400) * 86_400;
    const minter = String(e.args.minter);
    minters.add(minter);
    const m = byDay.get(day) ?? new Map<string, bigint>();
    m.set(minter, (m.get(minter) ?? 0n) + big(e.args.amount));
    byDay.set(day, m);
  }
  const days = [...byDay.keys()].sort((a, b) => a - b);
  const names = [...minters].sort();
  return { days, minters: names, amounts: names.map((n) => days.map((d) => byDay.get(d)!.get(n) ?? 0n)) };
}

export const QUEUE_STATUSES = ["pending", "ready", "finalized", "cancelled", "rejected"] as const;

/** The redemption queue: SP and requests per status. */
export function redemptionQueue(requests: readonly { status: string; amount: string }[]) {
  return QUEUE_STATUSES.map((status) => {
    const of = requests.filter((r) => r.status === status);
    return { status, count: of.length, amount: of.reduce((s, r) => s + big(r.amount), 0n) };
  });
}

/** Two running totals on one time axis: each carries its last value forward. */
export function merge(a: Steps, b: Steps): { t: number[]; a: (bigint | null)[]; b: (bigint | null)[] } {
  const t = [...new Set([...a.t, ...b.t])].sort((x, y) => x - y);
  const at = (s: Steps, time: number) => {
    let v: bigint | null = null;
    for (let i = 0; i < s.t.length && s.t[i]! <= time; i++) v = s.v[i]!;
    return v;
  };
  return { t, a: t.map((x) => at(a, x)), b: t.map((x) => at(b, x)) };
}
