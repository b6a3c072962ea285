import { useId, useState, type FormEvent } from "react";
import type { PreparedTx } from "@points/sdk";
import { useTx } from "../components/TxDialog";
import { Field, isAddress } from "../components/ui";
import { useDash } from "./context";
import { useTokenSymbol } from "./useTokenSymbol";
import { SP_DECIMALS, toUnits } from "./units";
import { addressError } from "./addressCheck";
import type { Blocker, Check } from "./preflight/checks";
import type { Values } from "./formValues";
import type { RoleOn } from "../safe/roleSafes";
import { ActingNote } from "../safe/ActAs";

export type FieldKind = "address" | "sp" | "psp" | "text" | "addresses" | "bool" | "units" | "uint";
export interface FieldSpec {
  name: string;
  /**
   * For "sp": the label without a unit; the form adds the token's own symbol, "Amount (ACME)".
   * For "psp" (a campaign's pending points, 1:1 with the token but not it): "Amount (pSP)".
   */
  label: string;
  kind: FieldKind;
  /** For "units": the token's decimals. */
  decimals?: number;
  optional?: boolean;
  hint?: string;
  initial?: string;
}
// In its own module so that preflight/checks.ts (which this form imports) can take it too.
export type { Values } from "./formValues";

function parse(spec: FieldSpec, raw: string): { value?: unknown; error?: string } {
  const v = raw.trim();
  if (!v && spec.kind !== "bool") {
    if (spec.optional) return { value: spec.kind === "addresses" ? [] : spec.kind === "text" ? "" : undefined };
    return { error: "Required." };
  }
  switch (spec.kind) {
    case "address": {
      const error = addressError(v);
      return error ? { error } : { value: v };
    }
    case "addresses": {
      const list = v.split(/[\s,]+/).filter(Boolean);
      const bad = list.find((a) => !isAddress(a));
      return bad ? { error: `${bad} is not an address.` } : { value: list };
    }
    case "sp":
    case "psp":
    case "units": {
      const u = toUnits(v, spec.kind === "units" ? (spec.decimals ?? 18) : SP_DECIMALS);
      return u === null ? { error: "Must be a number, like 100 or 2.5." } : { value: u };
    }
    case "uint":
      return /^\d+$/.test(v) ? { value: v } : { error: "Must be a whole number." };
    case "bool":
      return { value: v === "true" };
    default:
      return { value: v };
  }
}

/** The unit an amount field is typed in: the token's own symbol for SP, pSP for a campaign's pending points. */
const unit = (kind: FieldKind, symbol: string | null): string | null =>
  kind === "psp" ? "pSP" : kind === "sp" ? symbol : null;

/**
 * A small form whose submit builds one transaction through the SDK and hands it to the
 * transaction dialog (review, sign, receipt). Amounts are typed in whole tokens.
 */
export function ActionForm({
  title,
  fields,
  submit,
  build,
  idPrefix,
  after,
  destructive,
  check,
  needs,
}: {
  title: string;
  fields: FieldSpec[];
  submit: string;
  build(values: Values, from: string): Promise<PreparedTx>;
  idPrefix?: string;
  /** Runs once the transaction is mined, with the values it was built from. */
  after?(values: Values): void;
  /** What cannot be undone or changes who may act: the dialog confirms it as destructive. */
  destructive?: string;
  /** Balances, allowlists and budgets checked before anything is built or approved. */
  check?: Check;
  /**
   * The roles that allow this action, preferred first: a Safe of the wallet's that holds one
   * proposes it. Without them the action runs as every other write (the admin Safe, or the wallet).
   */
  needs?: RoleOn[];
}) {
  const run = useTx();
  const dash = useDash();
  const symbol = useTokenSymbol();
  const who = needs ? dash.acting(needs) : null;
  const from = who ? who.from : dash.from;
  const bump = dash.bump;
  const headingId = useId();
  const [raw, setRaw] = useState<Record<string, string>>(
    Object.fromEntries(fields.map((f) => [f.name, f.initial ?? (f.kind === "bool" ? "true" : "")])),
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [blocker, setBlocker] = useState<Blocker | null>(null);
  const [checking, setChecking] = useState(false);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const values: Values = {};
    const errs: Record<string, string> = {};
    for (const f of fields) {
      const r = parse(f, raw[f.name] ?? "");
      if (r.error) errs[f.name] = r.error;
      else values[f.name] = r.value;
    }
    setErrors(errs);
    setBlocker(null);
    if (Object.keys(errs).length || !from) return;
    if (check) {
      setChecking(true);
      // A check that cannot read (wallet on another chain, RPC down) lets the action go ahead:
      // the contract still enforces every rule, and the dialog shows its decoded refusal.
      const b = await check(values, from).catch(() => null);
      setChecking(false);
      if (b) return setBlocker(b);
    }
    run({
      title,
      destructive,
      role: who?.role ?? undefined,
      build: () => build(values, from),
      onDone: () => {
        bump();
        after?.(values);
      },
    });
  };

  return (
    <form
      className="action stack"
      onSubmit={(e) => void onSubmit(e)}
      aria-labelledby={headingId}
      noValidate
      data-form={idPrefix}
    >
      <h4 id={headingId}>{title}</h4>
      {fields.map((f) =>
        f.kind === "bool" ? (
          <label key={f.name} className="check">
            <input
              type="checkbox"
              checked={raw[f.name] === "true"}
              onChange={(e) => setRaw({ ...raw, [f.name]: String(e.target.checked) })}
            />
            {f.label}
          </label>
        ) : (
          <Field
            key={f.name}
            label={unit(f.kind, symbol) === null ? f.label : `${f.label} (${unit(f.kind, symbol)})`}
            value={raw[f.name]}
            textarea={f.kind === "addresses"}
            inputMode={
              f.kind === "sp" || f.kind === "psp" || f.kind === "units" || f.kind === "uint" ? "decimal" : undefined
            }
            spellCheck={false}
            hint={
              f.hint ??
              (f.kind === "sp" || f.kind === "psp"
                ? `${unit(f.kind, symbol) === null ? "" : `In ${unit(f.kind, symbol)}, `}e.g. 100 or 2.5.`
                : f.kind === "addresses"
                  ? "Addresses separated by commas or new lines."
                  : undefined)
            }
            error={errors[f.name]}
            onChange={(e) => setRaw({ ...raw, [f.name]: e.target.value })}
          />
        ),
      )}
      {blocker && (
        <div className="error" role="alert" data-testid={`${idPrefix}-blocked`}>
          <p>{blocker.message}</p>
          {blocker.fix && (
            <button
              type="button"
              onClick={() => run({ ...blocker.fix!.job, onDone: () => (setBlocker(null), bump()) })}
            >
              {blocker.fix.label}
            </button>
          )}
        </div>
      )}
      {who?.safe && <ActingNote safe={who.safe.address} role={who.role!} />}
      <div className="row">
        <button
          type="submit"
          className={destructive ? "danger" : "primary"}
          disabled={!from || checking}
          title={from ? undefined : "Connect a wallet first"}
        >
          {submit}
        </button>
      </div>
    </form>
  );
}
