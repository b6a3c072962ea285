import type { BulkPlan, BulkProgress } from "@points/sdk";
import { tokenAmount } from "../dashboard/tokenSymbol";
import { useTokenSymbol } from "../dashboard/useTokenSymbol";

const STATUS: Record<BulkProgress["status"] | "waiting", { text: string; badge: string }> = {
  waiting: { text: "waiting", badge: "" },
  pending: { text: "pending", badge: "accent" },
  mined: { text: "mined", badge: "ok" },
  landed: { text: "already on chain", badge: "ok" },
  failed: { text: "failed", badge: "bad" },
};

const shortHash = (h: string) => `${h.slice(0, 10)}…${h.slice(-6)}`;

/** Every chunk of a plan being sent: chunk k of n, its rows and total, its transaction and status. */
export function Progress({
  plan,
  progress,
  explorerUrl,
}: {
  plan: BulkPlan;
  progress: Record<number, BulkProgress>;
  explorerUrl: string | null;
}) {
  const symbol = useTokenSymbol();
  const done = plan.chunks.filter((c) => ["mined", "landed"].includes(progress[c.index]?.status ?? "")).length;
  const current = plan.chunks.find((c) => !["mined", "landed"].includes(progress[c.index]?.status ?? ""));
  return (
    <div className="stack" data-testid="bulk-progress">
      <p aria-live="polite" data-testid="bulk-progress-summary">
        {done === plan.chunkCount
          ? `All ${plan.chunkCount} transactions are on chain.`
          : `Chunk ${(current?.index ?? 0) + 1} of ${plan.chunkCount}: ${done} on chain.`}
      </p>
      <progress max={plan.chunkCount} value={done} aria-label="Transactions on chain" />
      <ol className="plain stack bulk-chunks">
        {plan.chunks.map((c) => {
          const p = progress[c.index];
          const s = STATUS[p?.status ?? "waiting"];
          return (
            <li key={c.index} data-testid={`bulk-chunk-${c.index + 1}`} data-status={p?.status ?? "waiting"}>
              <strong>
                Chunk {c.index + 1} of {plan.chunkCount}
              </strong>{" "}
              <span className="muted">
                rows {c.firstRow}–{c.firstRow + c.rowCount - 1}, {tokenAmount(c.totalAmount, plan.decimals, symbol)}
              </span>{" "}
              <span className={`badge ${s.badge}`}>{s.text}</span>{" "}
              {p?.hash &&
                (explorerUrl ? (
                  <a href={`${explorerUrl.replace(/\/$/, "")}/tx/${p.hash}`} target="_blank" rel="noopener noreferrer">
                    <code title={p.hash}>{shortHash(p.hash)}</code>
                  </a>
                ) : (
                  <code title={p.hash}>{shortHash(p.hash)}</code>
                ))}
              {p?.error && <p className="field-error">{p.error.message}</p>}
            </li>
          );
        })}
      </ol>
    </div>
  );
}
