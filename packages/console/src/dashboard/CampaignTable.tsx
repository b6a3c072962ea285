import { Table } from "../components/ui";
import { Amount } from "../components/format/Amount";
import { downloadCsv } from "../components/csvFile";
import { CampaignName } from "./CampaignName";
import { SP_DECIMALS } from "./units";
import { PENDING_SYMBOL } from "./tokenSymbol";
import { campaignsCsv, type LedgerCampaign } from "./campaignRows";

const STATUS_BADGE = { Active: "badge ok", Paused: "badge accent", Closed: "badge" } as const;

/**
 * The program's campaigns from the ledger: name (verified label, else the short id marked
 * unverified), budget and available in the token's symbol, outstanding pSP and status; a name
 * opens the campaign. The CSV holds the same rows in points. While the Campaign vault is paused
 * each status says so too: the campaign's own status is kept, but nothing moves.
 */
export function CampaignTable({
  campaigns,
  names,
  symbol,
  vaultPaused,
  onOpen,
}: {
  campaigns: LedgerCampaign[];
  names: Record<string, string>;
  symbol: string | null;
  vaultPaused?: boolean | null;
  onOpen: (id: string) => void;
}) {
  return (
    <div className="stack">
      {vaultPaused && (
        <p className="notice" role="note" data-testid="campaigns-vault-paused">
          The Campaign vault is paused: no campaign issues, settles, expires or moves pSP until a PAUSER_ROLE holder
          unpauses it on the Roles page.
        </p>
      )}
      <p className="row wrap">
        <button type="button" onClick={() => downloadCsv("campaigns.csv", campaignsCsv(campaigns, names, symbol))}>
          Download campaigns CSV
        </button>
      </p>
      <Table
        columns={["Campaign", "Budget", "Available", "Outstanding", "Status"]}
        label="Campaigns"
        className="stacked"
      >
        {campaigns.map((c) => (
          <tr key={c.campaignId} data-testid="campaign-row">
            <td data-label="Campaign">
              <button type="button" className="link" onClick={() => onOpen(c.campaignId)}>
                <CampaignName id={c.campaignId} label={names[c.campaignId]} />
              </button>
            </td>
            <td data-label="Budget">
              <Amount value={c.budget} decimals={SP_DECIMALS} symbol={symbol} />
            </td>
            <td data-label="Available">
              <Amount value={c.available} decimals={SP_DECIMALS} symbol={symbol} />
            </td>
            <td data-label="Outstanding">
              <Amount value={c.outstanding} decimals={SP_DECIMALS} symbol={PENDING_SYMBOL} />
            </td>
            <td data-label="Status">
              <span className={STATUS_BADGE[c.status]}>{c.status}</span>
              {vaultPaused && (
                <>
                  {" "}
                  <span className="badge bad">vault paused</span>
                </>
              )}
            </td>
          </tr>
        ))}
      </Table>
    </div>
  );
}
