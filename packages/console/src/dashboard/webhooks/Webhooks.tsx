import { useState } from "react";
import type { ResponseData } from "@points/sdk";
import type { Described } from "../../api/errors";
import { Card, ErrorBox } from "../../components/ui";
import { CampaignName } from "../CampaignName";
import { Address } from "../../components/format/Address";
import { UserText } from "../../components/format/UserText";
import { useDash, useLoad } from "../context";
import { eventWords } from "../ledger/eventWords";
import { useCampaignNames } from "../ledger/campaignNames";
import { CreateWebhook } from "./CreateWebhook";
import { Deliveries } from "./Deliveries";
import "../ledger/ledger.css";
import { handled } from "../../components/handled";

type Webhook = ResponseData<"ledgerWebhookList">[number];

/** One subscription: what it sends where, its status, pause/resume, delete (confirmed) and its delivery log. */
function WebhookCard({ w, onChange }: { w: Webhook; onChange(): void }) {
  const { client, explorerUrl } = useDash();
  const names = useCampaignNames();
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<Described | null>(null);
  const act = (f: () => Promise<unknown>) =>
    handled(async () => {
      setError(null);
      await f();
      onChange();
    }, setError);
  return (
    <section className="card stack" aria-label={`Webhook ${w.url}`} data-testid="webhook">
      <dl className="kv">
        <dt>Receiver</dt>
        <dd className="addr">
          <UserText text={w.url} />
        </dd>
        <dt>Status</dt>
        <dd>
          <span className={`badge ${w.status === "active" ? "ok" : "bad"}`} data-testid="webhook-status">
            {w.status}
          </span>
          {w.disabledReason && <> ({w.disabledReason})</>}
        </dd>
        <dt>Events</dt>
        <dd>{w.eventTypes.includes("*") ? "Every event" : w.eventTypes.map(eventWords).join(", ")}</dd>
        {w.campaignId && (
          <>
            <dt>Campaign</dt>
            <dd>
              <CampaignName id={w.campaignId} label={names[w.campaignId]} />
            </dd>
          </>
        )}
        {w.holder && (
          <>
            <dt>Holder</dt>
            <dd>
              <Address address={w.holder} explorerUrl={explorerUrl} />
            </dd>
          </>
        )}
      </dl>
      <div className="row wrap">
        {w.status === "active" ? (
          <button type="button" onClick={act(() => client.ledger.webhooks.pause(w.id))}>
            Pause
          </button>
        ) : (
          <button type="button" onClick={act(() => client.ledger.webhooks.resume(w.id))}>
            Resume
          </button>
        )}
        {!confirming && (
          <button type="button" className="danger" onClick={() => setConfirming(true)}>
            Delete
          </button>
        )}
      </div>
      {confirming && (
        <div className="notice stack" role="alertdialog" aria-label="Delete this webhook?">
          <strong>Delete this webhook?</strong>
          <p>Deliveries stop at once and its delivery log is gone. This cannot be undone.</p>
          <div className="row wrap">
            <button type="button" className="danger" onClick={act(() => client.ledger.webhooks.remove(w.id))}>
              Delete webhook
            </button>
            <button type="button" onClick={() => setConfirming(false)}>
              Keep it
            </button>
          </div>
        </div>
      )}
      <ErrorBox error={error} />
      <Deliveries webhookId={w.id} />
    </section>
  );
}

/** The program's webhooks (docs/architecture.md#webhooks): signed deliveries of its ledger events. */
export function Webhooks() {
  const { client, program } = useDash();
  const [tick, setTick] = useState(0);
  const list = useLoad(() => client.ledger.webhooks.list(), [tick]);
  // A console account may own webhooks of its program only; the filter keeps the page exact anyway.
  const mine = (list.value ?? []).filter((w) => w.program === program.id);
  const refresh = () => setTick((t) => t + 1);
  return (
    <div className="stack">
      <CreateWebhook onCreated={refresh} />
      <Card title="Webhooks">
        <ErrorBox error={list.error} />
        {list.value && mine.length === 0 && (
          <p className="muted">No webhook yet: add one above to have your backend told of every event.</p>
        )}
        <div className="stack">
          {mine.map((w) => (
            <WebhookCard key={w.id} w={w} onChange={refresh} />
          ))}
        </div>
      </Card>
    </div>
  );
}
