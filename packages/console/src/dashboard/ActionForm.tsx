import { useId, useState, type FormEvent } from "react";
import { getAddress } from "ethers";
import type { PreparedTx } from "@points/sdk";
import { useTx } from "../components/TxDialog";
import { Field, isAddress } from "../components/ui";
import { useDash } from "./context";
import { SP_DECIMALS, toUnits } from "./units";

export type FieldKind = "address" | "sp" | "text" | "addresses" | "bool" | "units" | "uint";
export interface FieldSpec {
  name: string;
  label: string;
  kind: FieldKind;
  /** For "units": the token's decimals. */
  decimals?: number;
  optional?: boolean;
  hint?: string;
  initial?: string;
}
export type Values = Record<string, any>;

function parse(spec: FieldSpec, raw: string): { value?: unknown; error?: string } {
  const v = raw.trim();
  if (!v && spec.kind !== "bool") {
    if (spec.optional) return { value: spec.kind === "addresses" ? [] : spec.kind === "text" ? "" : undefined };
    return { error: "Required." };
  }
  switch (spec.kind) {
    case "address":
      if (!isAddress(v)) return { error: "Must be an address (0x + 40 hex digits)." };
      return checksumOk(v)
        ? { value: v }
        : { error: "This address has a typo: its capital letters do not match its checksum. Copy it again." };
    case "addresses": {
      const list = v.split(/[\s,]+/).filter(Boolean);
      const bad = list.find((a) => !isAddress(a));
      return bad ? { error: `${bad} is not an address.` } : { value: list };
    }
    case "sp":
    case "units": {
      const u = toUnits(v, spec.kind === "sp" ? SP_DECIMALS : (spec.decimals ?? 18));
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

/** An all-lowercase or all-uppercase address carries no checksum; a mixed-case one must match EIP-55. */
function checksumOk(v: string): boolean {
  const hex = v.slice(2);
  if (hex === hex.toLowerCase() || hex === hex.toUpperCase()) return true;
  try {
    return getAddress(v) === v;
  } catch {
    return false;
  }
}

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
}) {
  const run = useTx();
  const { from, bump } = useDash();
  const headingId = useId();
  const [raw, setRaw] = useState<Record<string, string>>(
    Object.fromEntries(fields.map((f) => [f.name, f.initial ?? (f.kind === "bool" ? "true" : "")])),
  );
  const [errors, setErrors] = useState<Record<string, string>>({});

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const values: Values = {};
    const errs: Record<string, string> = {};
    for (const f of fields) {
      const r = parse(f, raw[f.name] ?? "");
      if (r.error) errs[f.name] = r.error;
      else values[f.name] = r.value;
    }
    setErrors(errs);
    if (Object.keys(errs).length || !from) return;
    run({
      title,
      destructive,
      build: () => build(values, from),
      onDone: () => {
        bump();
        after?.(values);
      },
    });
  };

  return (
    <form className="action stack" onSubmit={onSubmit} aria-labelledby={headingId} noValidate data-form={idPrefix}>
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
            label={f.label}
            value={raw[f.name]}
            textarea={f.kind === "addresses"}
            inputMode={f.kind === "sp" || f.kind === "units" || f.kind === "uint" ? "decimal" : undefined}
            spellCheck={false}
            hint={
              f.hint ??
              (f.kind === "sp"
                ? "In SP, e.g. 100 or 2.5."
                : f.kind === "addresses"
                  ? "Addresses separated by commas or new lines."
                  : undefined)
            }
            error={errors[f.name]}
            onChange={(e) => setRaw({ ...raw, [f.name]: e.target.value })}
          />
        ),
      )}
      <div className="row">
        <button
          type="submit"
          className={destructive ? "danger" : "primary"}
          disabled={!from}
          title={from ? undefined : "Connect a wallet first"}
        >
          {submit}
        </button>
      </div>
    </form>
  );
}
