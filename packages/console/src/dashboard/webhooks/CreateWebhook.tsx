import { useState, type FormEvent } from "react";
import type { ResponseData } from "@points/sdk";
import { describeError, type Described } from "../../api/errors";
import { Card, ErrorBox, Field } from "../../components/ui";
import { useDash } from "../context";
import { addressError } from "../addressCheck";
import { copyText } from "../../components/format/Address";
import { WEBHOOK_EVENTS, eventWords } from "../ledger/eventWords";

type Answer = ResponseData<"ledgerWebhookCreate">;
type Created = Extract<Answer, { created: true }>;

/** The same URL and filter again: the API answers the existing webhook, whose secret is not shown twice. */
function AlreadyThere({ onDone }: { onDone(): void }) {
  return (
    <div className="notice stack" role="status" aria-label="Webhook already exists">
      <strong>You already have this webhook: same receiver URL, same events, campaign and holder.</strong>
      <p>
        Nothing new was added. Its signing secret was shown when it was created; if it is lost, delete the webhook and
        add it again.
      </p>
      <div className="row wrap">
        <button type="button" onClick={onDone}>
          OK
        </button>
      </div>
    </div>
  );
}

/** The signing secret, shown once, with a copy button and the warning that it will not come back. */
function SecretOnce({ created, onDone }: { created: Created; onDone(): void }) {
  const [copied, setCopied] = useState<string | null>(null);
  return (
    <div className="notice stack" role="status" aria-label="Signing secret">
      <strong>Copy the signing secret now: it is shown this once and never again.</strong>
      <p>Your receiver verifies every delivery's webhook-signature with it (Standard Webhooks).</p>
      <code className="secret" data-testid="webhook-secret">
        {created.secret}
      </code>
      <div className="row wrap">
        <button
          type="button"
          onClick={() => {
            copyText(created.secret).then(
              () => setCopied("Copied"),
              // The secret is never shown again: say so rather than let a refused copy pass for a copy.
              () => setCopied("Copy failed: select the secret and copy it by hand"),
            );
          }}
        >
          {copied ?? "Copy secret"}
        </button>
        <button type="button" onClick={onDone}>
          I stored it
        </button>
      </div>
    </div>
  );
}

/** Subscribe a URL to the program's ledger events, optionally of some events, one campaign or one holder. */
export function CreateWebhook({ onCreated }: { onCreated(): void }) {
  const { client } = useDash();
  const [url, setUrl] = useState("");
  const [events, setEvents] = useState<string[]>([]);
  const [campaign, setCampaign] = useState("");
  const [holder, setHolder] = useState("");
  const [errors, setErrors] = useState<{ url?: string; holder?: string }>({});
  const [error, setError] = useState<Described | null>(null);
  const [created, setCreated] = useState<Answer | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const next = {
      url: /^https?:\/\/\S+$/.test(url.trim())
        ? undefined
        : "Must be a full http(s) address, like https://example.com/hooks.",
      holder: holder.trim() ? (addressError(holder) ?? undefined) : undefined,
    };
    setErrors(next);
    if (next.url || next.holder) return;
    setBusy(true);
    setError(null);
    try {
      const answer = await client.ledger.webhooks.subscribe({
        webhookUrl: url.trim(),
        ...(events.length ? { eventTypes: events } : {}),
        ...(campaign.trim() ? { campaignId: campaign.trim() } : {}),
        ...(holder.trim() ? { holder: holder.trim() } : {}),
      });
      setCreated(answer);
      setUrl("");
      setEvents([]);
      setCampaign("");
      setHolder("");
      onCreated();
    } catch (err) {
      setError(describeError(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card title="Add a webhook">
      {created?.created ? (
        <SecretOnce created={created} onDone={() => setCreated(null)} />
      ) : created ? (
        <AlreadyThere onDone={() => setCreated(null)} />
      ) : (
        <form className="stack" onSubmit={(e) => void submit(e)} noValidate data-form="create-webhook">
          <Field
            label="Receiver URL"
            placeholder="https://example.com/hooks/points"
            value={url}
            error={errors.url}
            onChange={(e) => setUrl(e.target.value)}
          />
          <fieldset className="stack">
            <legend>Events (none ticked: every event)</legend>
            <div className="checks">
              {WEBHOOK_EVENTS.map((name) => (
                <label key={name} className="check">
                  <input
                    type="checkbox"
                    checked={events.includes(name)}
                    onChange={(e) => setEvents((l) => (e.target.checked ? [...l, name] : l.filter((x) => x !== name)))}
                  />{" "}
                  {eventWords(name)}
                </label>
              ))}
            </div>
          </fieldset>
          <Field
            label="Only this campaign (optional)"
            hint="Its label or id."
            value={campaign}
            onChange={(e) => setCampaign(e.target.value)}
          />
          <Field
            label="Only this holder (optional)"
            value={holder}
            error={errors.holder}
            onChange={(e) => setHolder(e.target.value)}
          />
          <ErrorBox error={error} />
          <div className="row">
            <button type="submit" className="primary" disabled={busy}>
              Add webhook
            </button>
          </div>
        </form>
      )}
    </Card>
  );
}
