import { useState } from "react";
import { Link } from "react-router";
import { Card, ErrorBox, Field, Table } from "../../components/ui";
import { Address } from "../../components/format/Address";
import { Amount } from "../../components/format/Amount";
import { describeError, type Described } from "../../api/errors";
import { downloadCsv } from "../../components/csvFile";
import { CUSTOMERS_PER_PAGE, customersCsv, readFilter, type Customer, type CustomerFilter } from "./customerRows";
import { useDash } from "../context";
import { SP_DECIMALS } from "../units";
import { PENDING_SYMBOL } from "../tokenSymbol";
import { useTokenSymbol } from "../useTokenSymbol";
import { LedgerStatus } from "../ledger/LedgerStatus";
import { useLedger } from "../ledger/useLedger";

/**
 * /console/program/customer: the program's customers from the ledger (holders of SP or pSP, and
 * everyone ever issued pSP), a page at a time by address, narrowed by an address prefix and a
 * minimum balance, each row opening the customer's page; the CSV holds every page.
 */
export function CustomerList() {
  const { client, explorerUrl } = useDash();
  const symbol = useTokenSymbol();
  const [prefix, setPrefix] = useState("");
  const [min, setMin] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [filter, setFilter] = useState<CustomerFilter>({});
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const [csvError, setCsvError] = useState<Described | null>(null);
  const [exporting, setExporting] = useState(false);
  const cursor = cursors[cursors.length - 1];
  const page = useLedger(
    () => client.ledger.customers({ ...filter, cursor, limit: CUSTOMERS_PER_PAGE }),
    [filter.prefix, filter.minBalance, cursor],
  );
  const rows = page.value?.customers ?? [];
  const apply = () => {
    const read = readFilter(prefix, min);
    setErrors(read.errors);
    if (Object.keys(read.errors).length > 0) return;
    setFilter(read.filter);
    setCursors([undefined]);
  };
  const exportCsv = async () => {
    setExporting(true);
    setCsvError(null);
    try {
      const all: Customer[] = [];
      for await (const c of client.ledger.all.customers({ ...filter, limit: 500 })) all.push(c);
      downloadCsv("customers.csv", customersCsv(all, symbol));
    } catch (e) {
      setCsvError(describeError(e, symbol));
    } finally {
      setExporting(false);
    }
  };
  const minLabel = `Minimum ${symbol ?? "SP"} balance`;
  return (
    <Card title="Customers">
      <p className="muted">
        Everyone who holds {symbol ?? "SP"} or {PENDING_SYMBOL}, or was ever issued {PENDING_SYMBOL}, by address. Open
        one for its allowlists and history.
      </p>
      <div role="search" aria-label="Filter customers" className="row wrap">
        <Field
          label="Address starts with"
          placeholder="0x…"
          value={prefix}
          error={errors.prefix}
          autoComplete="off"
          spellCheck={false}
          onChange={(e) => setPrefix(e.target.value)}
          onKeyDown={(e) => e.key === "Enter" && apply()}
        />
        <Field
          label={minLabel}
          inputMode="decimal"
          placeholder="0"
          value={min}
          error={errors.min}
          autoComplete="off"
          onChange={(e) => setMin(e.target.value)}
          onKeyDown={(e) => e.key === "Enter" && apply()}
        />
        <button type="button" onClick={apply}>
          Filter
        </button>
      </div>
      <LedgerStatus stand={page.value ? page.stand : null} />
      <ErrorBox error={page.error} />
      <p className="row wrap">
        <button type="button" onClick={() => void exportCsv()} disabled={exporting}>
          {exporting ? "Preparing CSV…" : "Download CSV"}
        </button>
      </p>
      <ErrorBox error={csvError} />
      {page.value && rows.length === 0 && <p className="muted">No customer matches.</p>}
      {rows.length > 0 && (
        <Table
          columns={["Customer", symbol ?? "SP", PENDING_SYMBOL, "Issued", "Settled", "Clawed back"]}
          label="Customers"
          className="stacked"
        >
          {rows.map((c) => (
            <tr key={c.holder} data-testid="customer-list-row">
              <td data-label="Customer">
                <Address address={c.holder} explorerUrl={explorerUrl} />{" "}
                <Link to={`/program/customer/${c.holder}`} aria-label={`Open customer ${c.holder}`}>
                  Open
                </Link>
              </td>
              <td data-label={symbol ?? "SP"}>
                <Amount value={c.sp} decimals={SP_DECIMALS} symbol={symbol} />
              </td>
              {(
                [
                  [PENDING_SYMBOL, c.psp],
                  ["Issued", c.issued],
                  ["Settled", c.settled],
                  ["Clawed back", c.clawedBack],
                ] as const
              ).map(([label, value]) => (
                <td key={label} data-label={label}>
                  <Amount value={value} decimals={SP_DECIMALS} symbol={PENDING_SYMBOL} />
                </td>
              ))}
            </tr>
          ))}
        </Table>
      )}
      <div className="row wrap">
        <button type="button" disabled={cursors.length < 2} onClick={() => setCursors((c) => c.slice(0, -1))}>
          Previous customers
        </button>
        <button
          type="button"
          disabled={!page.value?.nextCursor}
          onClick={() => page.value?.nextCursor && setCursors((c) => [...c, page.value!.nextCursor!])}
        >
          Next customers
        </button>
      </div>
    </Card>
  );
}
