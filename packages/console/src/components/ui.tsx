import { useId, type InputHTMLAttributes, type ReactNode } from "react";
import type { Described } from "../api/errors";
import { Address } from "./format/Address";

/** A labelled input with its hint and error tied to it for screen readers. */
export function Field({
  label,
  hint,
  error,
  textarea,
  ...input
}: { label: string; hint?: ReactNode; error?: string | null; textarea?: boolean } & InputHTMLAttributes<
  HTMLInputElement & HTMLTextAreaElement
>) {
  const id = useId();
  const describedBy = [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined;
  const props = { id, "aria-invalid": error ? true : undefined, "aria-describedby": describedBy, ...input };
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {textarea ? <textarea rows={3} {...props} /> : <input {...props} />}
      {hint && (
        <small id={`${id}-hint`} className="hint">
          {hint}
        </small>
      )}
      {error && (
        <small id={`${id}-error`} className="field-error">
          {error}
        </small>
      )}
    </div>
  );
}

export function ErrorBox({ error }: { error: Described | null }) {
  if (!error) return null;
  return (
    <div className="error" role="alert">
      <strong>{error.title}</strong>
      {error.detail && <p>{error.detail}</p>}
      {error.fields && error.fields.length > 0 && (
        <ul>
          {error.fields.map((f) => (
            <li key={f.field}>
              {f.field}: {f.message}
            </li>
          ))}
        </ul>
      )}
      {error.raw && (
        <details className="raw-error">
          <summary>Technical details</summary>
          <code>{error.raw}</code>
        </details>
      )}
    </div>
  );
}

export function Card({ title, children, actions }: { title: string; children: ReactNode; actions?: ReactNode }) {
  const id = useId();
  return (
    <section className="card" aria-labelledby={id}>
      <header className="row between">
        <h3 id={id}>{title}</h3>
        {actions}
      </header>
      {children}
    </section>
  );
}

/** An address shortened, with copy and an explorer link when the chain has an explorer. */
export const AddressLink = Address;

/** A table with one header row naming its columns; `children` are the body rows. */
export function Table({
  columns,
  label,
  caption,
  className,
  children,
}: {
  columns: string[];
  label?: string;
  caption?: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <table className={className ? `table ${className}` : "table"} aria-label={label}>
      {caption && <caption className="sr-only">{caption}</caption>}
      <thead>
        <tr>
          {columns.map((c) => (
            <th scope="col" key={c}>
              {c}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}

export const isAddress = (v: string) => /^0x[0-9a-fA-F]{40}$/.test(v.trim());
