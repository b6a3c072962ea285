import { useState } from "react";
import { describeError, type Described } from "../../api/errors";
import { ErrorBox } from "../../components/ui";

// What every step shares; the Wizard imports the steps, never the other way round.

/** Shared buttons at the foot of a step: Back (before the deploy) and the primary action. */
export function StepNav({
  back,
  primary,
  busy,
  disabled,
}: {
  back?: () => void;
  primary: string;
  busy?: boolean;
  disabled?: boolean;
}) {
  return (
    <div className="row between">
      {back ? (
        <button type="button" onClick={back}>
          Back
        </button>
      ) : (
        <span />
      )}
      <button className="primary" type="submit" disabled={busy || disabled}>
        {busy ? "Saving…" : primary}
      </button>
    </div>
  );
}

/** Runs a save and keeps its error for display: `run` never rejects, so callers may `void` it. */
export function useSaving() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Described | null>(null);
  const run = async (f: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await f();
    } catch (e) {
      setError(describeError(e));
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, setError, run, errorBox: <ErrorBox error={error} /> };
}
