import { useState } from "react";
import { describeError, type Described } from "../../api/errors";
import { ErrorBox, Table } from "../../components/ui";
import { useDash, useLoad } from "../context";
import { eventWords } from "../ledger/eventWords";

/** The delivery log of one webhook, newest first, each delivery sent again on request. */
export function Deliveries({ webhookId }: { webhookId: string }) {
  const { client } = useDash();
  const [tick, setTick] = useState(0);
  const [error, setError] = useState<Described | null>(null);
  const log = useLoad(() => client.ledger.webhooks.deliveries(webhookId, { limit: 25 }), [webhookId, tick]);
  const redeliver = async (id: string) => {
    try {
      await client.ledger.webhooks.redeliver(webhookId, id);
      setTick((t) => t + 1);
    } catch (e) {
      setError(describeError(e));
    }
  };
  const rows = log.value?.deliveries ?? [];
  return (
    <div className="stack">
      <div className="row wrap between">
        <strong>Delivery log</strong>
        <button type="button" onClick={() => setTick((t) => t + 1)}>
          Refresh log
        </button>
      </div>
      <ErrorBox error={log.error ?? error} />
      {log.value && rows.length === 0 && <p className="muted">No delivery yet: events after the ledger's block now.</p>}
      {rows.length > 0 && (
        <Table
          columns={["Event", "Block", "Status", "Attempts", "Last answer", ""]}
          label="Delivery log"
          className="stacked"
        >
          {rows.map((d) => (
            <tr key={d.id} data-testid="delivery-row">
              <td data-label="Event">
                {d.type === "removed" ? "Removed by a reorg: " : ""}
                {d.event ? eventWords(d.event) : "—"}
              </td>
              <td data-label="Block">{d.blockNumber}</td>
              <td data-label="Status">
                <span className={`badge ${d.status === "delivered" ? "ok" : ""}`}>{d.status}</span>
              </td>
              <td data-label="Attempts">{d.attempts}</td>
              <td data-label="Last answer">
                {d.lastStatus ?? "—"}
                {d.lastError ? ` (${d.lastError})` : ""}
              </td>
              <td data-label="Action">
                <button
                  type="button"
                  onClick={() => void redeliver(d.id)}
                  aria-label={`Redeliver ${d.event ? eventWords(d.event) : "event"} of block ${d.blockNumber}`}
                >
                  Redeliver
                </button>
              </td>
            </tr>
          ))}
        </Table>
      )}
    </div>
  );
}
