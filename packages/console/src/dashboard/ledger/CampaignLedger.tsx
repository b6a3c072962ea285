import { Link } from "react-router";
import { Card } from "../../components/ui";
import { CampaignName } from "../CampaignName";
import { useDash } from "../context";
import { EVENTS_PER_PAGE, EventTable } from "./EventTable";
import { campaignCsvHref } from "./csv";

/** /console/program/campaigns/<campaign>/ledger: every event of one campaign, newest first, with CSV. */
export function CampaignLedger({ id, hexId, name }: { id: string; hexId?: string; name?: string }) {
  const { client, program } = useDash();
  return (
    <div className="stack">
      <p>
        <Link to={`/program/campaigns/${encodeURIComponent(id)}`}>← Back to the campaign</Link>
      </p>
      <Card title="Campaign ledger">
        <p>
          Every event of campaign{" "}
          <strong>{hexId ? <CampaignName id={hexId} label={name} /> : <code className="addr">{id}</code>}</strong>:
          funding, issuing, settlements, expiries, transfers, minters and allowlists.
        </p>
        <EventTable
          label="Campaign ledger"
          load={(cursor) => client.ledger.campaignLedger(id, { cursor, limit: EVENTS_PER_PAGE })}
          csvHref={campaignCsvHref(program, id)}
          csvName={`campaign-${name ?? id.slice(0, 10)}-ledger.csv`}
        />
      </Card>
    </div>
  );
}
