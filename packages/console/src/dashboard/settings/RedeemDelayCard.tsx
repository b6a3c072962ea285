import { useState, type FormEvent } from "react";
import { Card, Field } from "../../components/ui";
import type { Acting } from "../../safe/roleSafes";
import { Gate, MANAGER } from "./Gate";
import { DURATION_UNITS, durationWords, parseDuration, type DurationUnit } from "./words";

/** The Factory's redeem delay: a manager's change, reviewed in words. */
export function RedeemDelayCard({
  current,
  allowed,
  who,
  onSubmit,
}: {
  current: number;
  allowed: boolean | null;
  who: Acting;
  onSubmit(delay: number): void;
}) {
  const [amount, setAmount] = useState("");
  const [unit, setUnit] = useState<DurationUnit>("hours");
  const [error, setError] = useState<string | null>(null);
  const parsed = amount.trim() ? parseDuration(amount, unit) : null;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const p = parseDuration(amount, unit);
    setError(p.error ?? null);
    if (p.seconds !== undefined) onSubmit(p.seconds);
  };
  return (
    <Card title="Redeem delay">
      <p className="muted">
        How long a redemption request waits before its requester may finalize it alone: now {durationWords(current)}, at
        most 30 days. A manager (Manager role on the Factory) changes it.
      </p>
      <Gate allowed={allowed} role={MANAGER} who={who}>
        <form
          className="stack"
          onSubmit={submit}
          noValidate
          data-form="redeem-delay"
          aria-label="Change the redeem delay"
        >
          <div className="grid2">
            <Field
              label="New redeem delay"
              value={amount}
              inputMode="numeric"
              error={error}
              hint={
                parsed?.seconds !== undefined
                  ? `That is ${durationWords(parsed.seconds)}.`
                  : "A whole number, 0 for none."
              }
              onChange={(e) => setAmount(e.target.value)}
            />
            <div className="field">
              <label htmlFor="redeem-delay-unit">Unit</label>
              <select id="redeem-delay-unit" value={unit} onChange={(e) => setUnit(e.target.value as DurationUnit)}>
                {DURATION_UNITS.map(([u]) => (
                  <option key={u}>{u}</option>
                ))}
              </select>
            </div>
          </div>
          <div className="row">
            <button type="submit" className="primary">
              Review the new delay
            </button>
          </div>
        </form>
      </Gate>
    </Card>
  );
}
