import { describeWaiting, type Waiting } from "../api/waiting";

/** A status box saying, in words, why the executor's transactions wait (docs/architecture.md#transaction-engine). */
export function WaitingNotice({ waiting }: { waiting: Waiting | null | undefined }) {
  if (!waiting) return null;
  const { title, sentence } = describeWaiting(waiting);
  return (
    <div className="notice" role="status" aria-label={title}>
      <strong>{title}.</strong> {sentence}
      <details>
        <summary>Details</summary>
        <p className="addr">{waiting.message}</p>
      </details>
    </div>
  );
}
