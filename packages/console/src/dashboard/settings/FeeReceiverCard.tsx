import { useState, type FormEvent } from "react";
import { useTx } from "../../components/TxDialog";
import { Card, Field } from "../../components/ui";
import type { Acting } from "../../safe/roleSafes";
import { addressError, isZeroAddress } from "../addressCheck";
import type { Blocker } from "../preflight/checks";
import { ADMIN, Blocked, Gate } from "./Gate";

/** Where the Factory's fees go: the admin's change, never to the zero address. */
export function FeeReceiverCard({
  allowed,
  who,
  check,
  onSubmit,
  onDone,
}: {
  allowed: boolean | null;
  who: Acting;
  check(receiver: string): Promise<Blocker | null>;
  onSubmit(receiver: string): void;
  onDone(): void;
}) {
  const run = useTx();
  const [receiver, setReceiver] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [blocker, setBlocker] = useState<Blocker | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const v = receiver.trim();
    const err =
      addressError(v) ?? (isZeroAddress(v) ? "Must not be the zero address: the fees need a receiver." : null);
    setError(err);
    setBlocker(null);
    if (err) return;
    const b = await check(v).catch(() => null);
    if (b) return setBlocker(b);
    onSubmit(v);
  };
  return (
    <Card title="Fee receiver">
      <p className="muted">Where the mint and redeem fees go. The Factory's admin changes it.</p>
      <Gate allowed={allowed} role={ADMIN} who={who}>
        <form
          className="stack"
          onSubmit={(e) => void submit(e)}
          noValidate
          data-form="fee-receiver"
          aria-label="Change the fee receiver"
        >
          <Field
            label="New fee receiver"
            value={receiver}
            spellCheck={false}
            error={error}
            onChange={(e) => setReceiver(e.target.value)}
          />
          <Blocked blocker={blocker} id="fee-receiver" onFixed={() => (setBlocker(null), onDone())} run={run} />
          <div className="row">
            <button type="submit" className="danger">
              Review the new receiver
            </button>
          </div>
        </form>
      </Gate>
    </Card>
  );
}
