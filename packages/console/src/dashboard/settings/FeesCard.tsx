import { useState, type FormEvent } from "react";
import { useTx } from "../../components/TxDialog";
import { Card, Field } from "../../components/ui";
import type { Acting } from "../../safe/roleSafes";
import type { Blocker } from "../preflight/checks";
import { ADMIN, Blocked, Gate } from "./Gate";
import { feeWords, parseFeePercent, percentText } from "./words";

/** The Factory's mint and redeem fees: the admin's change, checked against the fee receiver first. */
export function FeesCard({
  mint,
  redeem,
  allowed,
  who,
  check,
  onSubmit,
  onDone,
}: {
  mint: number;
  redeem: number;
  allowed: boolean | null;
  who: Acting;
  check(mintBps: number, redeemBps: number): Promise<Blocker | null>;
  onSubmit(mintBps: number, redeemBps: number): void;
  onDone(): void;
}) {
  const run = useTx();
  const [raw, setRaw] = useState({ mint: percentText(mint), redeem: percentText(redeem) });
  const [errors, setErrors] = useState<{ mint?: string; redeem?: string }>({});
  const [blocker, setBlocker] = useState<Blocker | null>(null);
  const [checking, setChecking] = useState(false);
  const m = parseFeePercent(raw.mint);
  const r = parseFeePercent(raw.redeem);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setErrors({ mint: m.error, redeem: r.error });
    setBlocker(null);
    if (m.bps === undefined || r.bps === undefined) return;
    setChecking(true);
    // A check that cannot read lets the change go to the contract, whose refusal the dialog decodes.
    const b = await check(m.bps, r.bps).catch(() => null);
    setChecking(false);
    if (b) return setBlocker(b);
    onSubmit(m.bps, r.bps);
  };
  return (
    <Card title="Fees">
      <p className="muted">
        Taken on every mint and redemption, in percent (at most 10% each). The Factory's admin changes them.
      </p>
      <Gate allowed={allowed} role={ADMIN} who={who}>
        <form
          className="stack"
          onSubmit={(e) => void submit(e)}
          noValidate
          data-form="fees"
          aria-label="Change the fees"
        >
          <div className="grid2">
            <Field
              label="Mint fee (%)"
              value={raw.mint}
              inputMode="decimal"
              error={errors.mint}
              hint={m.bps !== undefined ? `That is ${feeWords(m.bps)}.` : "E.g. 0.25 for a quarter of a percent."}
              onChange={(e) => setRaw({ ...raw, mint: e.target.value })}
            />
            <Field
              label="Redeem fee (%)"
              value={raw.redeem}
              inputMode="decimal"
              error={errors.redeem}
              hint={r.bps !== undefined ? `That is ${feeWords(r.bps)}.` : "E.g. 1 for one percent."}
              onChange={(e) => setRaw({ ...raw, redeem: e.target.value })}
            />
          </div>
          <Blocked blocker={blocker} id="fees" onFixed={() => (setBlocker(null), onDone())} run={run} />
          <div className="row">
            <button type="submit" className="primary" disabled={checking}>
              Review the new fees
            </button>
          </div>
        </form>
      </Gate>
    </Card>
  );
}
