/**
 * Where a campaign's budget went (docs/glossary.md#budget): the contract keeps budget, available and
 * outstanding; settled, returned at close and expired after close come from its events. Every
 * wei of budget is in exactly one of the five, so they add up to the budget. Issued and clawed
 * back (expired) come from the events too: they say how available and outstanding got where they are.
 */

/** The fields of a ledger event this arithmetic reads (the ledger's LedgerEvent). */
export interface MoneyEvent {
  blockNumber: number;
  logIndex: number;
  event: string | null;
  args: Record<string, unknown>;
}

export interface CampaignMoney {
  budget: bigint;
  /** SP left to issue (contract). */
  available: bigint;
  /** pSP issued and neither settled nor expired (contract). */
  outstanding: bigint;
  /** pSP settled into SP (PSPSettled). */
  settled: bigint;
  /** Unused budget given back when the campaign closed, to the funder and the program (CampaignClosed, CampaignProgramShareReleased). */
  returnedAtClose: bigint;
  /** pSP expired after closing: it cannot be issued again, so it left the budget (PSPExpired after CampaignClosed). */
  expiredAfterClose: bigint;
  /** budget minus the five parts: 0 when the ledger has caught up with the contract. */
  unexplained: bigint;
  /** pSP ever issued (PSPMinted). */
  issued: bigint;
  /** pSP ever clawed back (PSPExpired), before closing and after. */
  clawedBack: bigint;
  /** The part of clawedBack expired while the campaign was open: it went back into available. */
  clawedBackWhileOpen: bigint;
  /** issued - settled - clawed back - outstanding: 0 when the ledger has every issue the contract counts. */
  unexplainedIssued: bigint;
}

const amount = (v: unknown): bigint => {
  if (typeof v !== "string" || !/^[0-9]+$/.test(v)) throw new Error(`not an amount: ${String(v)}`);
  return BigInt(v);
};

/** The five parts of a campaign's budget, from its state on chain and its events (any order). */
export function campaignMoney(
  state: { budget: string | bigint; available: string | bigint; outstanding: string | bigint },
  events: readonly MoneyEvent[],
): CampaignMoney {
  const ordered = [...events].sort((a, b) => a.blockNumber - b.blockNumber || a.logIndex - b.logIndex);
  let settled = 0n;
  let returnedAtClose = 0n;
  let expiredAfterClose = 0n;
  let [issued, clawedBack] = [0n, 0n];
  let closed = false;
  for (const e of ordered) {
    if (e.event === "PSPMinted") issued += amount(e.args.amount);
    if (e.event === "PSPExpired") clawedBack += amount(e.args.amount);
    if (e.event === "PSPSettled") settled += amount(e.args.amount);
    else if (e.event === "CampaignClosed") {
      returnedAtClose += amount(e.args.returned);
      closed = true;
    } else if (e.event === "CampaignProgramShareReleased") returnedAtClose += amount(e.args.amount);
    // Before closing, expired pSP goes back to available, which the contract already counts.
    else if (e.event === "PSPExpired" && closed) expiredAfterClose += amount(e.args.amount);
  }
  const budget = BigInt(state.budget);
  const available = BigInt(state.available);
  const outstanding = BigInt(state.outstanding);
  const unexplained = budget - available - outstanding - settled - returnedAtClose - expiredAfterClose;
  return {
    budget,
    available,
    outstanding,
    settled,
    returnedAtClose,
    expiredAfterClose,
    unexplained,
    issued,
    clawedBack,
    clawedBackWhileOpen: clawedBack - expiredAfterClose,
    unexplainedIssued: issued - settled - clawedBack - outstanding,
  };
}

/** One line of a sum as the page shows it: the start (no sign), added, taken away, or the result. */
export interface FlowLine {
  key: string;
  label: string;
  sign: "" | "+" | "−" | "=";
  value: bigint;
}

/**
 * How available and outstanding got where they are, as two sums a reader can check on screen:
 * budget − issued + clawed back while open − returned at close = available, and
 * issued − settled − clawed back = outstanding. Returned at close shows once there is some.
 */
export function moneyFlow(m: CampaignMoney): { budget: FlowLine[]; issued: FlowLine[] } {
  return {
    budget: [
      { key: "budget", label: "Budget (funded in total)", sign: "", value: m.budget },
      { key: "issued", label: "Issued as pSP", sign: "−", value: m.issued },
      {
        key: "clawedBackWhileOpen",
        label: "Clawed back while open (back into available)",
        sign: "+",
        value: m.clawedBackWhileOpen,
      },
      ...(m.returnedAtClose === 0n
        ? []
        : [{ key: "returnedAtClose", label: "Returned at close", sign: "−" as const, value: m.returnedAtClose }]),
      { key: "available", label: "Available to issue", sign: "=", value: m.available },
    ],
    issued: [
      { key: "issued", label: "Issued as pSP", sign: "", value: m.issued },
      { key: "settled", label: "Settled into SP", sign: "−", value: m.settled },
      { key: "clawedBack", label: "Clawed back (expired)", sign: "−", value: m.clawedBack },
      { key: "outstanding", label: "Outstanding pSP", sign: "=", value: m.outstanding },
    ],
  };
}
