import { useRef, useState, type FormEvent } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { PointsApiError } from "@points/sdk";
import { NotFound } from "../NotFound";
import { useWallet } from "../wallet/wallet";
import { Card, ErrorBox, Field } from "../components/ui";
import { ActionForm } from "./ActionForm";
import { campaignEvents } from "./chain";
import { useDash, useLoad } from "./context";
import { CampaignDetail } from "./CampaignDetail";
import { CampaignName } from "./CampaignName";
import { labelMetadata, verifiedLabel } from "./campaignLabel";

const isHexId = (v: string) => /^0x[0-9a-fA-F]{64}$/.test(v);

export function Campaigns() {
  const { client, program } = useDash();
  const wallet = useWallet();
  // The open campaign is part of the URL: /console/program/campaigns/<id or label>.
  const selected = useParams().sub ?? null;
  const navigate = useNavigate();
  const setSelected = (id: string) => navigate(`/program/campaigns/${encodeURIComponent(id)}`);
  const [open, setOpen] = useState("");
  const created = useRef<string | null>(null);
  // Names come from the chain (creation metadata), so every colleague's browser shows the same.
  const known = useLoad(async () => {
    const provider = wallet.provider();
    if (!provider || String(wallet.chainId) !== program.chainId) {
      return { ids: [] as string[], minters: new Map<string, Set<string>>(), names: {} as Record<string, string> };
    }
    const ev = await campaignEvents(provider, program);
    const names: Record<string, string> = {};
    for (const id of ev.campaigns) {
      const label = verifiedLabel(id, ev.metadata.get(id));
      if (label !== undefined) names[id] = label;
    }
    return { ids: ev.campaigns, minters: ev.minters, names };
  }, [wallet.chainId]);

  // An open campaign the vault does not have is a not-found page, not an error beside every form.
  const exists = useLoad(
    async () =>
      !selected ||
      client.vault.getCampaign(selected).then(
        () => true,
        (e) => {
          if (e instanceof PointsApiError && e.code === "NOT_FOUND") return false;
          throw e;
        },
      ),
    [selected],
  );

  const onOpen = (e: FormEvent) => {
    e.preventDefault();
    if (open.trim()) setSelected(open.trim());
  };

  if (selected && exists.value === false && !exists.loading) return <NotFound what="This campaign" />;
  // One campaign open: its page alone (on a phone it would otherwise sit under the create form).
  if (selected) {
    return (
      <div className="stack">
        <p>
          <Link to="/program/campaigns">← All campaigns</Link>
        </p>
        <ErrorBox error={exists.error} />
        <CampaignDetail
          id={selected}
          name={known.value?.names[selected]}
          minters={[...(known.value?.minters.get(selected) ?? [])]}
        />
      </div>
    );
  }
  return (
    <div className="split">
      <div className="stack">
        <Card title="Campaigns">
          <ErrorBox error={known.error} />
          {known.value && known.value.ids.length === 0 && (
            <p className="muted">No campaign yet: create one below with a short label and a budget in SP.</p>
          )}
          <ul className="list" aria-label="Campaigns">
            {known.value?.ids.map((id) => (
              <li key={id}>
                <button
                  className={`link ${selected === id ? "active" : ""}`}
                  aria-current={selected === id ? "true" : undefined}
                  onClick={() => setSelected(id)}
                >
                  <CampaignName id={id} label={known.value!.names[id]} />
                </button>
              </li>
            ))}
          </ul>
          <form className="row wrap" onSubmit={onOpen} noValidate>
            <Field label="Open a campaign by id or label" value={open} onChange={(e) => setOpen(e.target.value)} />
            <button type="submit">Open</button>
          </form>
        </Card>
        <Card title="Create a campaign">
          <p className="muted">
            The budget comes from SP already in the vault, then from your wallet (you approve the vault first).
          </p>
          <ActionForm
            title="New campaign"
            submit="Create campaign"
            idPrefix="create-campaign"
            fields={[
              {
                name: "campaignId",
                label: "Campaign id or label",
                kind: "text",
                hint: "A short label like summer-2026, or 0x + 64 hex digits.",
              },
              { name: "spBudget", label: "Budget (SP)", kind: "sp" },
              { name: "settlementDestinations", label: "Settlement destinations", kind: "addresses", optional: true },
              { name: "transferWhitelist", label: "pSP transfer allowlist", kind: "addresses", optional: true },
              { name: "metadata", label: "Metadata", kind: "text", optional: true },
            ]}
            build={async (v, from) => {
              const tx = await client.vault.createCampaign(
                {
                  campaignId: v.campaignId,
                  spBudget: v.spBudget,
                  settlementDestinations: v.settlementDestinations,
                  transferWhitelist: v.transferWhitelist,
                  // A label goes into the creation metadata, where every browser (and the ledger) reads it.
                  metadata: isHexId(v.campaignId) ? v.metadata : labelMetadata(v.campaignId, v.metadata || undefined),
                },
                { from },
              );
              created.current = tx.campaignId?.value ?? null;
              return tx;
            }}
            // Selected once mined: before that the campaign does not exist yet.
            after={(v) => setSelected(created.current ?? v.campaignId)}
          />
        </Card>
      </div>
      <div>
        <p className="muted panel">Select or create a campaign to manage it.</p>
      </div>
    </div>
  );
}
