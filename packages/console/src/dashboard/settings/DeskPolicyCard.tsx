import { useState } from "react";
import type { DeskView } from "@points/sdk";
import { describeError, type Described } from "../../api/errors";
import { Address } from "../../components/format/Address";
import { Card, ErrorBox } from "../../components/ui";
import { Gate, MANAGER } from "./Gate";

/** The desk's policies in words, as the settings show and offer them. */
export const POLICY_WORDS: Record<DeskView["policy"], string> = {
  automatic: "Automatic: the executor finalizes each request once it is ready",
  manual: "Manual: the executor finalizes the requests a manager approves",
  off: "Off: requesters finalize their own requests",
};

/** The desk's policy through its own route: a manager's wallet signs it (EIP-712), after a review in words. */
export function DeskPolicyCard({
  desk,
  allowed,
  wallet,
  sign,
}: {
  desk: DeskView;
  allowed: boolean | null;
  wallet: string | null;
  sign(policy: DeskView["policy"]): Promise<void>;
}) {
  const [choice, setChoice] = useState<DeskView["policy"]>(desk.policy);
  const [reviewing, setReviewing] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Described | null>(null);
  // Never rejects: a failed signature shows in the card's ErrorBox.
  const go = async () => {
    setBusy(true);
    setError(null);
    try {
      await sign(choice);
      setReviewing(false);
    } catch (e) {
      setError(describeError(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card title="Redemption desk policy">
      <p className="muted">
        How the service's executor finalizes matured redemption requests. A manager's wallet signs the change (no
        transaction, no gas).
      </p>
      <Gate allowed={allowed} role={MANAGER} who={{ from: wallet, safe: null, role: null }}>
        <form
          className="stack"
          data-form="desk-policy"
          aria-label="Change the redemption desk policy"
          onSubmit={(e) => (e.preventDefault(), setReviewing(true))}
        >
          <fieldset disabled={busy}>
            <legend>Policy</legend>
            {(Object.keys(POLICY_WORDS) as DeskView["policy"][]).map((p) => (
              <label key={p} className="check">
                <input
                  type="radio"
                  name="settings-desk-policy"
                  value={p}
                  checked={choice === p}
                  onChange={() => (setChoice(p), setReviewing(false))}
                />
                {POLICY_WORDS[p]}
              </label>
            ))}
          </fieldset>
          {reviewing ? (
            <div className="notice stack" role="region" aria-label="Review the desk policy">
              <dl className="kv">
                <dt>Desk policy</dt>
                <dd>{POLICY_WORDS[choice]}</dd>
                <dt>Now</dt>
                <dd>{POLICY_WORDS[desk.policy]}</dd>
                <dt>Signed by</dt>
                <dd>{wallet && <Address address={wallet} />}</dd>
              </dl>
              <div className="row">
                <button type="button" className="primary" disabled={busy} onClick={() => void go()}>
                  Sign and save
                </button>
                <button type="button" disabled={busy} onClick={() => setReviewing(false)}>
                  Cancel
                </button>
              </div>
            </div>
          ) : (
            <div className="row">
              <button type="submit" disabled={choice === desk.policy}>
                Review the new policy
              </button>
            </div>
          )}
          <ErrorBox error={error} />
        </form>
      </Gate>
    </Card>
  );
}
