/**
 * Answers of the database kept in memory for `ttlMs`, so a hot route does not query the
 * database on every request (embedded PGlite serialises every query on the event loop).
 * In-flight lookups are shared; failures and `undefined` answers are never kept. Another
 * instance's writes show up here within `ttlMs`; this instance's own writes call `delete`/`clear`.
 */
export class TtlCache<T> {
  private readonly entries = new Map<string, { until: number; value: Promise<T> }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  get(key: string, load: () => Promise<T>): Promise<T> {
    if (this.ttlMs <= 0) return load();
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && hit.until > now) return hit.value;
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    const value = load().then(
      (v) => {
        if (v === undefined) this.entries.delete(key);
        return v;
      },
      (e) => {
        this.entries.delete(key);
        throw e;
      },
    );
    this.entries.set(key, { until: now + this.ttlMs, value });
    return value;
  }

  delete(key: string) {
    this.entries.delete(key);
  }

  clear() {
    this.entries.clear();
  }
}
