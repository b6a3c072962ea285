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
