import { useState } from "react";
import { firstError } from "./validate";

/**
 * Binds the inputs of a wizard step to one record of text values: `bind(k)` gives field `k`
 * its value, a change handler and its error, shown only once the user has tried to submit.
 */
export function fieldBinder<T extends Record<string, string>>(
  values: T,
  setValues: (next: T) => void,
  errors: { [K in keyof T]?: string | null },
  touched: boolean,
) {
  return (k: keyof T & string) => ({
    value: values[k],
    onChange: (e: { target: { value: string } }) => setValues({ ...values, [k]: e.target.value }),
    error: touched ? (errors[k] ?? null) : null,
  });
}

/**
 * A wizard step's text fields: their values, `bind` for each input, `submitted` (marks the step
 * submitted; true when no field, and nothing `blocked`, is wrong) and the values `trimmed`.
 */
export function useStepFields<T extends Record<string, string>>(initial: T) {
  const [values, setValues] = useState<T>(initial);
  const [touched, setTouched] = useState(false);
  return {
    values,
    setValues,
    touched,
    bind: (errors: { [K in keyof T]?: string | null }) => fieldBinder(values, setValues, errors, touched),
    submitted: (errors: Record<string, string | null>, blocked = false) => {
      setTouched(true);
      return !firstError(errors) && !blocked;
    },
    trimmed: () => Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v.trim()])) as T,
  };
}
