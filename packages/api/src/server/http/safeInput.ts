import { isSafeText, SAFE_TEXT_MESSAGE } from "@points/schema";

/** Deeper JSON than any route's schema: refused before validation walks it. */
export const MAX_INPUT_DEPTH = 32;

export interface UnsafeInput {
  path: (string | number)[];
  message: string;
}

/** A key as a field name can show it: JSON escapes make NUL and lone surrogates visible. */
const printable = (key: string) => (isSafeText(key) ? key : JSON.stringify(key).slice(1, -1));

/**
 * The first string (value or object key) PostgreSQL could not hold, or the first place nested
 * deeper than MAX_INPUT_DEPTH. Iterative, so no input can exhaust the stack; every route's
 * params, query and body pass here before their schema, whatever fields the schema names.
 */
export function findUnsafeInput(value: unknown): UnsafeInput | undefined {
  const stack: [unknown, (string | number)[]][] = [[value, []]];
  while (stack.length > 0) {
    const [v, path] = stack.pop()!;
    if (typeof v === "string") {
      if (!isSafeText(v)) return { path, message: SAFE_TEXT_MESSAGE };
      continue;
    }
    if (typeof v !== "object" || v === null) continue;
    if (path.length >= MAX_INPUT_DEPTH) return { path, message: `must not nest deeper than ${MAX_INPUT_DEPTH} levels` };
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], [...path, i]]);
      continue;
    }
    for (const [k, x] of Object.entries(v as Record<string, unknown>).reverse()) {
      if (!isSafeText(k)) return { path: [...path, printable(k)], message: `key ${SAFE_TEXT_MESSAGE}` };
      stack.push([x, [...path, k]]);
    }
  }
  return undefined;
}
