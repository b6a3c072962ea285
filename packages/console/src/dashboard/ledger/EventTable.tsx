import { useState } from "react";
import type { ResponseData } from "@points/sdk";
import { ErrorBox, Table } from "../../components/ui";
import { Amount } from "../../components/format/Amount";
import { CampaignName } from "../CampaignName";
import { OnChainName } from "../names";
import { useDash } from "../context";
import { SP_DECIMALS } from "../units";
import { eventLine } from "./eventWords";
import { useTokenSymbol } from "../useTokenSymbol";
import { LedgerStatus } from "./LedgerStatus";
import { useCampaignNames } from "./campaignNames";
import { useLedger } from "./useLedger";
import { Address } from "../../components/format/Address";
import { downloadCsv } from "../../components/csvFile";
import { describeError, type Described } from "../../api/errors";
import { eventsCsv } from "./eventsCsv";
import "./ledger.css";

type Page = Pick<ResponseData<"ledgerHolderHistory">, "blockNumber" | "events" | "nextCursor">;
export type LedgerEvent = Page["events"][number];

/** Rows per page of an event list. */
export const EVENTS_PER_PAGE = 25;

const txShort = (hash: string) => `${hash.slice(0, 10)}…${hash.slice(-6)}`;

/** A transaction hash, linked to the explorer (rel="noopener noreferrer") when the chain has one. */
function TxLink({ hash }: { hash: string }) {
  const { explorerUrl } = useDash();
  const text = (
    <code className="tx-hash" title={hash}>
      <span aria-hidden="true">{txShort(hash)}</span>
      <span className="sr-only">{hash}</span>
    </code>
  );
  if (!explorerUrl) return text;
  return (
    <a href={`${explorerUrl.replace(/\/$/, "")}/tx/${hash}`} target="_blank" rel="noopener noreferrer">
      {text}
    </a>
  );
}

/**
 * A ledger event list, newest first, a page at a time (the API's cursor), with the block it is
 * consistent with and a CSV download of the whole list (same origin: the session cookie goes along).
 */
export function EventTable({
  label,
  load,
  csvHref,
  csvName,
}: {
  label: string;
  load: (cursor: string | undefined) => Promise<Page>;
  csvHref: string;
  csvName: string;
}) {
  const names = useCampaignNames();
  const symbol = useTokenSymbol();
  // The cursors of the pages seen so far: going back needs no cursor arithmetic.
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const cursor = cursors[cursors.length - 1];
  const page = useLedger(() => load(cursor), [cursor]);
  const rows = page.value?.events ?? [];
  const [exporting, setExporting] = useState(false);
  const [csvError, setCsvError] = useState<Described | null>(null);
  // Every page, walked with the same cursor the table uses; the file is built in the browser.
  const exportPoints = async () => {
    setExporting(true);
    setCsvError(null);
    try {
      const all: LedgerEvent[] = [];
      let next: string | undefined = undefined;
      do {
        const p: Page = await load(next);
        all.push(...p.events);
        next = p.nextCursor ?? undefined;
      } while (next !== undefined);
      downloadCsv(csvName.replace(/\.csv$/, "-points.csv"), eventsCsv(all, names, symbol));
    } catch (e) {
      setCsvError(describeError(e, symbol));
    } finally {
      setExporting(false);
    }
  };
  return (
    <div className="stack">
      <LedgerStatus stand={page.value ? page.stand : null} />
      <ErrorBox error={page.error} />
      <p className="row wrap">
        <button type="button" onClick={() => void exportPoints()} disabled={exporting}>
          {exporting ? "Preparing CSV…" : "Download CSV in points"}
        </button>
        <a className="button" href={csvHref} download={csvName}>
          Download CSV
        </a>
        <small className="muted">(smallest units, every argument)</small>
      </p>
      <ErrorBox error={csvError} />
      {page.value && rows.length === 0 && <p className="muted">No event yet.</p>}
      {rows.length > 0 && (
        <Table
          columns={["Time", "Event", "Campaign", "Holder", "Minter", "Amount", "Transaction"]}
          label={label}
          className="stacked"
        >
          {rows.map((e) => {
            const line = eventLine(e.event, e.args, symbol);
            return (
              <tr key={`${e.blockNumber}.${e.logIndex}`} data-testid="ledger-row">
                <td data-label="Time">
                  <time dateTime={e.time}>{e.time.replace("T", " ").replace(/\.\d+Z$|Z$/, " UTC")}</time>
                </td>
                <td data-label="Event">
                  <OnChainName words={line.words} onChain={e.event ?? "unknown"} />
                </td>
                <td data-label="Campaign">
                  {e.campaignId ? <CampaignName id={e.campaignId} label={names[e.campaignId]} /> : "—"}
                </td>
                <td data-label="Holder">{line.holder ? <Address address={line.holder} /> : "—"}</td>
                <td data-label="Minter">{line.minter ? <Address address={line.minter} /> : "—"}</td>
                <td data-label="Amount">
                  {line.amount === null ? (
                    "—"
                  ) : (
                    <Amount value={line.amount} decimals={SP_DECIMALS} symbol={line.symbol} />
                  )}
                </td>
                <td data-label="Transaction">
                  <TxLink hash={e.txHash} />
                </td>
              </tr>
            );
          })}
        </Table>
      )}
      <div className="row wrap">
        <button type="button" disabled={cursors.length < 2} onClick={() => setCursors((c) => c.slice(0, -1))}>
          Newer events
        </button>
        <button
          type="button"
          disabled={!page.value?.nextCursor}
          onClick={() => page.value?.nextCursor && setCursors((c) => [...c, page.value!.nextCursor!])}
        >
          Older events
        </button>
      </div>
    </div>
  );
}
