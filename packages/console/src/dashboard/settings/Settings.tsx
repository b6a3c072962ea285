import { useState, type FormEvent, type ReactNode } from "react";
import type { DeskView } from "@points/sdk";
import { describeError, type Described } from "../../api/errors";
import { Address } from "../../components/format/Address";
import { useTx } from "../../components/TxDialog";
import { Card, ErrorBox, Field } from "../../components/ui";
import { ActingNote } from "../../safe/ActAs";
import type { Acting, RoleOn } from "../../safe/roleSafes";
import { useWallet } from "../../wallet/wallet";
import { addressError } from "../addressCheck";
import { programContracts } from "../chain";
import { useDash, useLoad } from "../context";
import { CONTRACT_WORDS, roleWords } from "../names";
import { accessChange, type Blocker } from "../preflight/checks";
import { tokenWord } from "../tokenSymbol";
import { useTokenSymbol } from "../useTokenSymbol";
import {
  DURATION_UNITS,
  durationWords,
  feeWords,
  parseDuration,
  parseFeePercent,
  percentText,
  type DurationUnit,
} from "./words";

const MANAGER: RoleOn = { contract: "factory", role: "MANAGER_ROLE" };
const ADMIN: RoleOn = { contract: "factory", role: "DEFAULT_ADMIN_ROLE" };
const POINTS_ADMIN: RoleOn = { contract: "points", role: "DEFAULT_ADMIN_ROLE" };
const ZERO = /^0x0{40}$/i;

const POLICY_WORDS: Record<DeskView["policy"], string> = {
  automatic: "Automatic: the executor finalizes each request once it is ready",
  manual: "Manual: the executor finalizes the requests a manager approves",
  off: "Off: requesters finalize their own requests",
};

/** Why a card offers no form: the role it takes, in words, and who lacks it. */
function NotYours({ role, who }: { role: RoleOn; who: string | null }) {
  return (
    <p className="muted" data-testid="settings-not-allowed">
      Changing this takes the {roleWords(role.role)} role on the {CONTRACT_WORDS[role.contract]};{" "}
      {who ? (
        <>
          <Address address={who} /> does not hold it.
        </>
      ) : (
        "connect a wallet that holds it."
      )}
    </p>
  );
}

/**
 * The program's settings (src/pages.tsx "settings"): the Factory's redeem delay, fees and fee
 * receiver, and the redemption desk's policy, each shown in words and changed through the review
 * every transaction has. A form shows only when the acting account holds the role the chain asks
 * for (read now with roles/check); the desk policy is signed by a manager's wallet.
 */
export function Settings() {
  const { client, program, acting, bump, explorerUrl, wallet: mine, version } = useDash();
  const wallet = useWallet();
  const run = useTx();
  const symbol = useTokenSymbol();
  const state = useLoad(() => client.read.factoryState(), []);
  const desk = useLoad(() => client.desk.get(program.id), []);
  const manager = acting([MANAGER]);
  const admin = acting([ADMIN]);
  const pointsAdmin = acting([POINTS_ADMIN]);
  // The preflight: what the chain lets each acting account do, read now (a role may have moved).
  const may = useLoad(async () => {
    const holds = async (who: Acting, r: RoleOn) =>
      !!who.from && (await client.roles.check(r.contract, r.role, who.from)).hasRole;
    const [delay, fees, receiverFix, desk] = await Promise.all([
      holds(manager, MANAGER),
      holds(admin, ADMIN),
      holds(pointsAdmin, POINTS_ADMIN),
      holds({ from: mine, safe: null, role: null }, MANAGER),
    ]);
    return { delay, fees, receiverFix, desk };
  }, [manager.from, admin.from, pointsAdmin.from, mine]);

  const s = state.value;
  const known = (address: string): string | null => {
    const contract = programContracts(program).find(([, a]) => a.toLowerCase() === address.toLowerCase());
    if (contract) return `the program's ${CONTRACT_WORDS[contract[0]]}`;
    if (mine && mine.toLowerCase() === address.toLowerCase()) return "your wallet";
    return null;
  };
  const receiverWords = (address: string): ReactNode =>
    ZERO.test(address) ? (
      "none (the zero address)"
    ) : (
      <>
        {known(address) && <span data-testid="fee-receiver-name">{known(address)} </span>}
        <Address address={address} explorerUrl={explorerUrl} />
      </>
    );

  /**
   * With a fee above 0 the fee receiver must be able to receive SP (FeeReceiverNotWhitelisted):
   * while transfers are restricted it must be on the Points transfer allowlist.
   */
  const receiverCheck = async (receiver: string, mintBps: number, redeemBps: number): Promise<Blocker | null> => {
    if (!s || (mintBps === 0 && redeemBps === 0) || !s.transferRestricted) return null;
    if (!ZERO.test(receiver) && (await client.points.isTransferWhitelisted(receiver))) return null;
    const canFix = !!may.value?.receiverFix && !ZERO.test(receiver) && !!pointsAdmin.from;
    return {
      message: `The fee receiver ${ZERO.test(receiver) ? "is not set" : receiver + " is not on the Points transfer allowlist"}, and a fee above 0 needs it to receive ${tokenWord(symbol)}, so the Factory would refuse the change. ${ZERO.test(receiver) ? "Set a fee receiver first." : canFix ? "You administer the Points token: add it first, then try again." : "Ask the Points token's admin to add it."}`,
      fix: canFix
        ? accessChange("transfer", receiver, () =>
            client.points.addToTransferWhitelist(receiver, { from: pointsAdmin.from! }),
          )
        : undefined,
    };
  };

  return (
    <div className="cards">
      <Card title="Current settings">
        <ErrorBox error={state.error} />
        {s && (
          <dl className="kv" aria-label="Current settings">
            <dt>Redeem delay</dt>
            <dd data-testid="setting-redeem-delay">{durationWords(s.redeemDelay)}</dd>
            <dt>Mint fee</dt>
            <dd data-testid="setting-mint-fee">{feeWords(s.mintFeeBps)}</dd>
            <dt>Redeem fee</dt>
            <dd data-testid="setting-redeem-fee">{feeWords(s.redeemFeeBps)}</dd>
            <dt>Fee receiver</dt>
            <dd data-testid="setting-fee-receiver">{receiverWords(s.feeReceiver)}</dd>
            <dt>Redemption desk</dt>
            <dd data-testid="setting-desk-policy">
              {desk.value ? POLICY_WORDS[desk.value.policy] : desk.error ? "not available to this account" : "…"}
            </dd>
          </dl>
        )}
        <ErrorBox error={may.error} />
      </Card>
      {s && (
        <RedeemDelayCard
          key={`delay-${version}`}
          current={s.redeemDelay}
          allowed={may.value?.delay ?? null}
          who={manager}
          onSubmit={(delay) =>
            run({
              title: "Change the redeem delay",
              role: manager.role ?? undefined,
              words: [
                ["Redeem delay", `${durationWords(delay)} (now ${durationWords(s.redeemDelay)})`],
                [
                  "What changes",
                  "A redemption requested from now on waits this long before its requester may finalize it alone; earlier requests keep their own ready time.",
                ],
              ],
              build: () => client.settings.setRedeemDelay(delay, { from: manager.from! }),
              onDone: bump,
            })
          }
        />
      )}
      {s && (
        <FeesCard
          key={`fees-${version}`}
          mint={s.mintFeeBps}
          redeem={s.redeemFeeBps}
          allowed={may.value?.fees ?? null}
          who={admin}
          check={(m, r) => receiverCheck(s.feeReceiver, m, r)}
          onDone={bump}
          onSubmit={(mintFeeBps, redeemFeeBps) =>
            run({
              title: "Change the fees",
              role: admin.role ?? undefined,
              words: [
                ["Mint fee", `${feeWords(mintFeeBps)} (now ${feeWords(s.mintFeeBps)})`],
                ["Redeem fee", `${feeWords(redeemFeeBps)} (now ${feeWords(s.redeemFeeBps)})`],
                ["Paid to", receiverWords(s.feeReceiver)],
              ],
              build: () => client.settings.setFees({ mintFeeBps, redeemFeeBps }, { from: admin.from! }),
              onDone: bump,
            })
          }
        />
      )}
      {s && (
        <FeeReceiverCard
          key={`receiver-${version}`}
          allowed={may.value?.fees ?? null}
          who={admin}
          check={(r) => receiverCheck(r, s.mintFeeBps, s.redeemFeeBps)}
          onDone={bump}
          onSubmit={(receiver) =>
            run({
              title: "Change the fee receiver",
              role: admin.role ?? undefined,
              destructive: `Every mint and redeem fee goes to ${receiver} from now on.`,
              words: [
                ["Fee receiver", receiverWords(receiver)],
                ["Now", receiverWords(s.feeReceiver)],
              ],
              build: () => client.settings.setFeeReceiver(receiver, { from: admin.from! }),
              onDone: bump,
            })
          }
        />
      )}
      {desk.value && (
        <DeskPolicyCard
          desk={desk.value}
          allowed={may.value?.desk ?? null}
          wallet={mine}
          sign={async (policy) => {
            await client.desk.setPolicy(desk.value!, policy, await wallet.signer());
            bump();
          }}
        />
      )}
    </div>
  );
}

/** Shown while the roles are read, or in place of the form when the acting account lacks the role. */
function Gate({
  allowed,
  role,
  who,
  children,
}: {
  allowed: boolean | null;
  role: RoleOn;
  who: Acting;
  children: ReactNode;
}) {
  if (allowed === null) return <p className="progress">Checking your roles…</p>;
  if (!allowed) return <NotYours role={role} who={who.from} />;
  return (
    <>
      {who.safe && <ActingNote safe={who.safe.address} role={who.role!} />}
      {children}
    </>
  );
}

function RedeemDelayCard({
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

function FeesCard({
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

function FeeReceiverCard({
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
    const err = addressError(v) ?? (ZERO.test(v) ? "Must not be the zero address: the fees need a receiver." : null);
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

/** A preflight's refusal at the form, with the access change that fixes it when the wallet may make it. */
function Blocked({
  blocker,
  id,
  onFixed,
  run,
}: {
  blocker: Blocker | null;
  id: string;
  onFixed(): void;
  run: ReturnType<typeof useTx>;
}) {
  if (!blocker) return null;
  return (
    <div className="error" role="alert" data-testid={`${id}-blocked`}>
      <p>{blocker.message}</p>
      {blocker.fix && (
        <button type="button" onClick={() => run({ ...blocker.fix!.job, onDone: onFixed })}>
          {blocker.fix.label}
        </button>
      )}
    </div>
  );
}

/** The desk's policy through its own route: a manager's wallet signs it (EIP-712), after a review in words. */
function DeskPolicyCard({
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
