import { useEffect, useState } from "react";
import { Card, ErrorBox } from "../../components/ui";
import { Amount } from "../../components/format/Amount";
import { useDash, useLoad } from "../context";
import { campaignEvents } from "../ledger/events";
import { SP_DECIMALS } from "../units";
import { useTokenSymbol } from "../useTokenSymbol";
import { campaignMoney, moneyFlow, type CampaignMoney as Money, type FlowLine } from "./campaignMoney";

const PARTS: [keyof Money, string, string][] = [
  ["available", "Available to issue", "from the contract"],
  ["outstanding", "Outstanding pSP", "issued, not yet settled or expired; from the contract"],
  ["settled", "Settled into SP", "paid out to holders"],
  ["returnedAtClose", "Returned at close", "unused budget given back when the campaign closed"],
  ["expiredAfterClose", "Expired after close", "clawed back after closing; it cannot be issued again"],
];

/** Reads again while the ledger is behind the contract (it indexes a block or two after it is mined). */
const RETRIES = 30;

/**
 * budget = available + outstanding + settled + returned at close + expired after close, each
 * labelled; then how available and outstanding got there, with what was issued and clawed back.
 */
export function CampaignMoney({ id }: { id: string }) {
  const { client } = useDash();
  const symbol = useTokenSymbol();
  const [attempt, setAttempt] = useState(0);
  const money = useLoad(async () => {
    const [ledger, state] = await Promise.all([campaignEvents(client, id), client.vault.getCampaign(id)]);
    return { ...campaignMoney(state, ledger.events), ledgerBlock: ledger.blockNumber };
  }, [id, attempt]);
  const m = money.value;
  // A ledger behind the contract can miss an issue too, which leaves the five parts adding up.
  const behind = m !== null && (m.unexplained !== 0n || m.unexplainedIssued !== 0n);
  useEffect(() => {
    if (!behind || attempt >= RETRIES) return;
    const t = setTimeout(() => setAttempt((a) => a + 1), 1000);
    return () => clearTimeout(t);
  }, [behind, attempt, m]);

  return (
    <Card title="Where the budget went">
      <ErrorBox error={money.error} />
      {m && (
        <table className="table" data-testid="campaign-money">
          <caption className="sr-only">The campaign budget and where it went</caption>
          <tbody>
            {PARTS.map(([key, label, why]) => (
              <tr key={key} data-testid={`money-${key}`}>
                <th scope="row">
                  {label} <small className="muted">({why})</small>
                </th>
                <td className="num">
                  <Amount value={m[key] as bigint} decimals={SP_DECIMALS} symbol={symbol} />
                </td>
              </tr>
            ))}
            <tr data-testid="money-budget" className="total">
              <th scope="row">Budget (funded in total)</th>
              <td className="num">
                <Amount value={m.budget} decimals={SP_DECIMALS} symbol={symbol} />
              </td>
            </tr>
          </tbody>
        </table>
      )}
      {m && !behind && (
        <p className="muted" data-testid="money-adds-up">
          The five parts add up to the budget, and each sum below adds up, to the wei.
        </p>
      )}
      {m && (
        <>
          <Flow
            symbol={symbol}
            id="budget"
            caption="From the budget to what is available"
            lines={moneyFlow(m).budget}
          />
          <Flow symbol={symbol} id="issued" caption="What became of the pSP issued" lines={moneyFlow(m).issued} />
        </>
      )}
      {behind && (
        <p role="status">
          The ledger (at block {m.ledgerBlock ?? "none yet"}) is catching up with the chain; reading again…
        </p>
      )}
    </Card>
  );
}

/** A sum written out line by line, its result last (docs/glossary.md#budget). */
function Flow({
  id,
  caption,
  lines,
  symbol,
}: {
  id: string;
  caption: string;
  lines: FlowLine[];
  symbol: string | null;
}) {
  return (
    <table className="table flow" data-testid={`money-flow-${id}`}>
      <caption>{caption}</caption>
      <tbody>
        {lines.map((l) => (
          <tr key={l.key} data-testid={`flow-${id}-${l.key}`} className={l.sign === "=" ? "total" : undefined}>
            <th scope="row">{l.label}</th>
            <td className="num">
              {l.sign && <span className="sign">{l.sign} </span>}
              <Amount value={l.value} decimals={SP_DECIMALS} symbol={symbol} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
