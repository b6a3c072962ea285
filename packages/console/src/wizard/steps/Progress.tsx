import { useEffect, useState } from "react";
import { useSession } from "../../session";
import type { StageView, TaskView } from "../../api/console";
import { onboardingApi } from "../../api/onboarding";
import { describeError, type Described } from "../../api/errors";
import { ErrorBox } from "../../components/ui";
import { WaitingNotice } from "../../components/WaitingNotice";
import { useSaving } from "./shared";

/** How often the wizard polls a deployment task (every 2 seconds). */
export const POLL_MS = 2000;

/** GET /v1/client-onboarding/tasks/:taskId every 2 seconds until the task ends. */
export function useTask(taskId: string | null) {
  const [task, setTask] = useState<TaskView | null>(null);
  const [error, setError] = useState<Described | null>(null);
  const [nonce, setNonce] = useState(0);
  useEffect(() => {
    if (!taskId) return;
    let live = true;
    let timer: ReturnType<typeof setTimeout>;
    const poll = async () => {
      try {
        const t = await onboardingApi.task(taskId);
        if (!live) return;
        setTask(t);
        setError(null);
        if (t.status === "succeeded" || t.status === "failed") return;
      } catch (e) {
        if (live) setError(describeError(e));
      }
      if (live) timer = setTimeout(() => void poll(), POLL_MS);
    };
    void poll();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [taskId, nonce]);
  return { task, error, refresh: () => setNonce((n) => n + 1) };
}

const STAGE_LABEL: Record<StageView["name"], string> = {
  validate: "Check the request",
  release: "Shared contracts on the chain",
  deploy: "Deploy the program (one transaction)",
  verify: "Verify roles and code on chain",
  register: "Register the program",
};
const STATUS_ICON: Record<StageView["status"], string> = {
  pending: "○",
  running: "◐",
  done: "✓",
  failed: "✕",
  skipped: "–",
};

/** Step 7: each stage with its state and transactions, live. */
export function Progress() {
  const { me, save } = useSession();
  const { task, error, refresh } = useTask(me.wizard.taskId);
  const s = useSaving();

  return (
    <section className="panel stack" aria-labelledby="progress-title">
      <h2 id="progress-title">Deploying {me.wizard.brand}</h2>
      <ErrorBox error={error} />
      {!task && !error && <p className="progress">Loading the task…</p>}
      {task && (
        <>
          <p aria-live="polite" className={`status status-${task.status}`}>
            Status: <strong>{task.status}</strong>
            {task.status !== "succeeded" && task.status !== "failed" && " — updated every 2 seconds"}
          </p>
          {task.status === "awaiting_approval" && (
            <p className="notice" role="status">
              This chain is not a testnet: the deploy waits until the operator of this service approves it. Nothing is
              spent before then; this page updates by itself.
            </p>
          )}
          <WaitingNotice waiting={task.waiting} />
          <Stages stages={task.stages} />
          {task.status === "failed" && (
            <div className="stack">
              <ErrorBox
                error={{ title: "The deploy failed", detail: task.error ? describeTaskError(task.error) : undefined }}
              />
              <div className="row">
                <button
                  className="primary"
                  disabled={s.busy}
                  onClick={() => void s.run(async () => (await onboardingApi.retry(task.taskId), refresh()))}
                >
                  Retry the deploy
                </button>
              </div>
            </div>
          )}
          {s.errorBox}
          {task.status === "succeeded" && task.program && (
            <div className="row end">
              <button className="primary" disabled={s.busy} onClick={() => void s.run(() => save({ step: 8 }))}>
                Continue to contracts
              </button>
            </div>
          )}
        </>
      )}
    </section>
  );
}

export function Stages({ stages }: { stages: StageView[] }) {
  return (
    <ol className="stages">
      {stages.map((st) => (
        <li key={st.name} className={`stage stage-${st.status}`}>
          <span className="icon" aria-hidden="true">
            {STATUS_ICON[st.status]}
          </span>
          <div>
            <strong>{STAGE_LABEL[st.name] ?? st.name}</strong> <span className="badge">{st.status}</span>
            {st.transactions.length > 0 && (
              <ul className="txs">
                {st.transactions.map((t) => (
                  <li key={t.hash}>
                    {t.description}:{" "}
                    {t.explorerUrl ? (
                      <a href={t.explorerUrl} target="_blank" rel="noopener noreferrer">
                        <code>{t.hash}</code>
                      </a>
                    ) : (
                      <code>{t.hash}</code>
                    )}
                  </li>
                ))}
              </ul>
            )}
            {st.error && <p className="field-error">{st.error}</p>}
          </div>
        </li>
      ))}
    </ol>
  );
}

/** "validate failed (INSUFFICIENT_FUNDS): signer ... holds 0 wei ..." */
function describeTaskError(e: NonNullable<TaskView["error"]>): string {
  return `${e.stage ? `${e.stage} failed` : "failed"} (${e.code}): ${e.message}`;
}
