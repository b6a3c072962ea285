import { Table } from "../components/ui";
import { Address } from "../components/format/Address";
import { Amount } from "../components/format/Amount";
import { downloadCsv } from "../components/csvFile";
import { CampaignName } from "./CampaignName";
import { useDash } from "./context";
import { SP_DECIMALS } from "./units";
import { PENDING_SYMBOL } from "./tokenSymbol";
import { minterRows, minterStatus, mintersCsv, type LedgerCampaign } from "./campaignRows";

const BADGE: Record<string, string> = { Active: "badge ok", "Limit reached": "badge accent", Inactive: "badge" };

/**
 * Every delegated minter of the program, across campaigns, from the ledger: campaign by label,
 * minter, limit and issued in pSP, and status in words; the CSV holds the same rows in points.
 */
export function MinterList({ campaigns, names }: { campaigns: LedgerCampaign[]; names: Record<string, string> }) {
  const { explorerUrl } = useDash();
  const rows = minterRows(campaigns);
  if (rows.length === 0)
    return <p className="muted">No delegated minter yet: configure one on a campaign's Minters tab.</p>;
  return (
    <div className="stack">
      <p className="row wrap">
        <button type="button" onClick={() => downloadCsv("minters.csv", mintersCsv(rows, names))}>
          Download minters CSV
        </button>
      </p>
      <Table
        columns={["Campaign", "Minter", "Limit", "Issued", "Status"]}
        label="Delegated minters"
        className="stacked"
      >
        {rows.map((m) => {
          const status = minterStatus(m);
          return (
            <tr key={`${m.campaignId}-${m.minter}`} data-testid="minter-row">
              <td data-label="Campaign">
                <CampaignName id={m.campaignId} label={names[m.campaignId]} />
              </td>
              <td data-label="Minter">
                <Address address={m.minter} explorerUrl={explorerUrl} />
              </td>
              <td data-label="Limit">
                <Amount value={m.limit} decimals={SP_DECIMALS} symbol={PENDING_SYMBOL} />
              </td>
              <td data-label="Issued">
                <Amount value={m.issued} decimals={SP_DECIMALS} symbol={PENDING_SYMBOL} />
              </td>
              <td data-label="Status">
                <span className={BADGE[status]}>{status}</span>
              </td>
            </tr>
          );
        })}
      </Table>
    </div>
  );
}
