import { useState } from "react";
import type { DeskView } from "@points/sdk";
import { describeError, type Described } from "../api/errors";
import { Card, ErrorBox, Table } from "../components/ui";
import { Address } from "../components/format/Address";
import { WaitingNotice } from "../components/WaitingNotice";
import { useDash, useLoad } from "../dashboard/context";
import { SP_DECIMALS, fmt } from "../dashboard/units";
import { useWallet } from "../wallet/wallet";
import { deskBoundsText } from "./bounds";
import { useTokenSymbol } from "../dashboard/useTokenSymbol";

const POLICIES = [
  ["automatic", "Automatic: the executor finalizes each request once it is ready, in batches"],
  ["manual", "Manual: the executor finalizes the requests you approve"],
  ["off", "Off: requesters finalize their own requests"],
] as const;

const STATUS_TEXT: Record<DeskView["status"], string> = {
  ready: "The executor acts by this policy.",
  off: "The executor does nothing for this program.",
  executor_missing_role:
    "The executor lacks the Executor role on the Factory: nothing is sent until a manager (Manager role on the Factory) grants it in the Roles tab.",
  no_executor: "This server has no executor key for the chain.",
};

/**
 * The redemption desk (docs/deployment.md#redemption-desk): the program's policy and the queue of
 * pending requests; the connected wallet (a MANAGER_ROLE holder) signs each change.
 */
export function RedemptionDesk() {
  const { client, program, bump, explorerUrl } = useDash();
  const wallet = useWallet();
  const symbol = useTokenSymbol();
  const desk = useLoad(() => client.desk.get(program.id), []);
  const [error, setError] = useState<Described | null>(null);
  const [busy, setBusy] = useState(false);
  const [reasons, setReasons] = useState<Record<string, string>>({});
  const d = desk.value;
  const bounds = d && deskBoundsText(d.bounds, symbol);

  // Never rejects: a failure shows in the policy card's ErrorBox.
  const signed = async (f: (signer: Awaited<ReturnType<typeof wallet.signer>>) => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await f(await wallet.signer());
      bump();
    } catch (e) {
      setError(describeError(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="cards">
      <Card title="Redemption desk policy">
        <ErrorBox error={desk.error ?? error} />
        {d && (
          <>
            <p role="status" data-testid="desk-status">
              {STATUS_TEXT[d.status]}
            </p>
            <WaitingNotice waiting={d.waiting} />
            {bounds?.paused && (
              <div className="notice" role="status" aria-label="Desk paused" data-testid="desk-paused">
                <strong>Paused.</strong> {bounds.paused}
              </div>
            )}
            <fieldset disabled={busy || !wallet.address}>
              <legend>Policy (signed by your wallet, which must hold the Manager role on the Factory)</legend>
              {POLICIES.map(([value, label]) => (
                <label key={value} className="check">
                  <input
                    type="radio"
                    name="desk-policy"
                    value={value}
                    checked={d.policy === value}
                    onChange={() => void signed((s) => client.desk.setPolicy(d, value, s))}
                  />
                  {label}
                </label>
              ))}
            </fieldset>
          </>
        )}
      </Card>
      {bounds && (
        <Card title="Daily bounds">
          <p data-testid="desk-gas">{bounds.gas}</p>
          <p className="muted" data-testid="desk-minimum">
            {bounds.minimum}
          </p>
        </Card>
      )}
      {/* The queue's five columns take the whole row; on a phone each request stacks into labelled cells. */}
      <div className="wide">
        <Card title="Redemption queue">
          {d && d.pending.length === 0 && <p className="muted">No pending requests.</p>}
          {d && d.pending.length > 0 && (
            <Table
              columns={["Request", symbol === null ? "Amount" : `Amount (${symbol})`, "Pays to", "Ready", "Decision"]}
              label="Redemption queue"
              className="stacked"
            >
              {d.pending.map((p) => (
                <tr key={p.requestId}>
                  <td data-label="Request">#{p.requestId}</td>
                  <td data-label="Amount">{fmt(p.amount, SP_DECIMALS)}</td>
                  <td data-label="Pays to">
                    <Address address={p.to} explorerUrl={explorerUrl} />
                  </td>
                  <td data-label="Ready">
                    {bounds?.held.get(p.requestId) ?? (p.ready ? "ready" : new Date(p.readyAt * 1000).toLocaleString())}
                  </td>
                  <td data-label="Decision">
                    {p.decision ? (
                      <span>
                        {p.decision.decision === "approve" ? "approved" : `rejected: ${p.decision.reason}`} (
                        {p.decision.status})
                      </span>
                    ) : (
                      <div className="row wrap">
                        <button
                          disabled={busy || !wallet.address}
                          onClick={() => void signed((s) => client.desk.approve(d, p.requestId, s))}
                        >
                          Approve
                        </button>
                        <input
                          aria-label={`Reason to reject #${p.requestId}`}
                          maxLength={200}
                          value={reasons[p.requestId] ?? ""}
                          onChange={(e) => setReasons({ ...reasons, [p.requestId]: e.target.value })}
                        />
                        <button
                          disabled={busy || !wallet.address || !(reasons[p.requestId] ?? "").trim()}
                          onClick={() =>
                            void signed((s) => client.desk.reject(d, p.requestId, reasons[p.requestId]!, s))
                          }
                        >
                          Reject
                        </button>
                      </div>
                    )}
                  </td>
                </tr>
              ))}
            </Table>
          )}
        </Card>
      </div>
    </div>
  );
}
