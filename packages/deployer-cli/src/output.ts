/** Results printed after a command: readable lines, or JSON with --json. */

export function toJson(value: unknown): string {
  return JSON.stringify(value, (_k, v) => (typeof v === "bigint" ? v.toString() : v), 2);
}

/** Prints the string/number/bigint leaves of `value` as `path: value` lines. */
export function printSummary(title: string, value: unknown, write = (s: string) => process.stdout.write(s)): void {
  const lines: string[] = [];
  const walk = (v: unknown, prefix: string, depth: number) => {
    if (v === null || v === undefined) return;
    if (typeof v === "object" && depth < 3) {
      for (const [k, inner] of Object.entries(v as Record<string, unknown>)) {
        walk(inner, prefix ? `${prefix}.${k}` : k, depth + 1);
      }
      return;
    }
    if (["string", "number", "bigint", "boolean"].includes(typeof v)) lines.push(`  ${prefix}: ${String(v)}`);
  };
  walk(value, "", 0);
  write(`${title}\n${lines.join("\n")}\n`);
}
