import { useRef, useState, type FormEvent } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { PointsApiError } from "@points/sdk";
import { NotFound } from "../NotFound";
import { Card, ErrorBox, Field } from "../components/ui";
import { NEEDS } from "../safe/roleSafes";
import { ActionForm } from "./ActionForm";
import { spCheck } from "./preflight/programChecks";
import { whenRunning } from "./preflight/paused";
import { pausedStates } from "./chain";
import { useWallet } from "../wallet/wallet";
import { useTokenSymbol } from "./useTokenSymbol";
import { tokenWord } from "./tokenSymbol";
import { useDash, useLoad } from "./context";
import { CampaignDetail } from "./CampaignDetail";
import { labelMetadata, verifiedLabel } from "./campaignLabel";
import { useLedger } from "./ledger/useLedger";
import { LedgerStatus } from "./ledger/LedgerStatus";
import { CampaignLedger } from "./ledger/CampaignLedger";
import { CampaignTable } from "./CampaignTable";
import { MinterList } from "./MinterList";

const isHexId = (v: string) => /^0x[0-9a-fA-F]{64}$/.test(v);

export function Campaigns() {
  const { client, program } = useDash();
  const wallet = useWallet();
  // Pause states are read through the wallet's RPC, only when it is on the program's chain.
  const chainReader = () => (String(wallet.chainId) === program.chainId ? wallet.provider() : null);
  // A paused Campaign vault stops every campaign whatever its own status says (the ledger does not know it).
  const vaultPaused = useLoad(async () => {
    const p = chainReader();
    return p ? ((await pausedStates(p, program)).pspVault ?? null) : null;
  }, [wallet.chainId]);
  const symbol = useTokenSymbol();
  // The open campaign is part of the URL: /console/program/campaigns/<id or label>[/ledger].
  const { sub, view } = useParams();
  const selected = sub ?? null;
  const navigate = useNavigate();
  // Under a BrowserRouter navigate is synchronous; only data routers return a promise.
  const setSelected = (id: string) => void navigate(`/program/campaigns/${encodeURIComponent(id)}`);
  const [open, setOpen] = useState("");
  const created = useRef<string | null>(null);
  // Campaigns, names and minters come from the ledger (creation metadata), so every colleague's browser shows the same.
  const known = useLedger(async () => {
    const answer = await client.ledger.campaigns();
    const names: Record<string, string> = {};
    const minters = new Map<string, string[]>();
    for (const c of answer.campaigns) {
      const label = verifiedLabel(c.campaignId, c.metadata);
      if (label !== undefined) names[c.campaignId] = label;
      minters.set(
        c.campaignId,
        c.minters.map((m) => m.minter),
      );
    }
    return {
      blockNumber: answer.blockNumber,
      campaigns: answer.campaigns,
      ids: answer.campaigns.map((c) => c.campaignId),
      minters,
      names,
    };
  }, []);
  const hexOf = (ref: string) =>
    isHexId(ref) ? ref.toLowerCase() : known.value?.ids.find((id) => known.value!.names[id] === ref);

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
  if (selected && view === "ledger") {
    const hex = hexOf(selected);
    return <CampaignLedger id={selected} hexId={hex} name={hex ? known.value?.names[hex] : undefined} />;
  }
  if (selected) {
    const hex = hexOf(selected);
    return (
      <div className="stack">
        <p className="row wrap between">
          <Link to="/program/campaigns">← All campaigns</Link>
          <Link to={`/program/campaigns/${encodeURIComponent(selected)}/ledger`}>Campaign ledger and CSV</Link>
        </p>
        <ErrorBox error={exists.error} />
        <CampaignDetail
          id={selected}
          name={hex ? known.value?.names[hex] : undefined}
          minters={(hex && known.value?.minters.get(hex)) || []}
        />
      </div>
    );
  }
  return (
    <div className="stack">
      {/* The lists take the full width (five columns); the create form sits beside its hint. */}
      <Card title="Campaigns">
        <LedgerStatus stand={known.value ? known.stand : null} />
        <ErrorBox error={known.error} />
        {known.value && known.value.ids.length === 0 && (
          <p className="muted">
            No campaign yet: create one below with a short label and a budget in {tokenWord(symbol)}.
          </p>
        )}
        {known.value && known.value.campaigns.length > 0 && (
          <CampaignTable
            campaigns={known.value.campaigns}
            names={known.value.names}
            symbol={symbol}
            vaultPaused={vaultPaused.value}
            onOpen={setSelected}
          />
        )}
        <form className="row wrap" onSubmit={onOpen} noValidate>
          <Field label="Open a campaign by id or label" value={open} onChange={(e) => setOpen(e.target.value)} />
          <button type="submit">Open</button>
        </form>
      </Card>
      <Card title="Delegated minters">
        {known.value && <MinterList campaigns={known.value.campaigns} names={known.value.names} />}
      </Card>
      <div className="halves">
        <Card title="Create a campaign">
          <p className="muted">
            The budget comes from {tokenWord(symbol)} already in the vault, then from your wallet (you approve the vault
            first).
          </p>
          <ActionForm
            title="New campaign"
            submit="Create campaign"
            idPrefix="create-campaign"
            needs={NEEDS.createCampaign}
            check={whenRunning(
              chainReader,
              program,
              ["pspVault", "points"],
              "creating this campaign",
              spCheck(client, "spBudget", "this budget", symbol),
            )}
            fields={[
              {
                name: "campaignId",
                label: "Campaign id or label",
                kind: "text",
                hint: "A short label like summer-2026, or 0x + 64 hex digits.",
              },
              { name: "spBudget", label: "Budget", kind: "sp" },
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
        <div>
          <p className="muted panel">Select or create a campaign to manage it.</p>
        </div>
      </div>
    </div>
  );
}
