/**
 * The service's retry waits, in one place: every backoff doubles per failure from a minimum up to
 * a maximum, and those many clients could hit at once are spread by jitter.
 */

/** The wait after the `n`-th failure (from 1): `min` doubling per failure, at most `max` (any unit). */
export const doubling = (n: number, min: number, max: number) =>
  Math.min(max, min * 2 ** Math.min(30, Math.max(0, n - 1)));

/** `ms` drawn uniformly between `lo` and `hi` times itself, so retries that failed together spread out. */
export const jittered = (ms: number, lo: number, hi: number) => ms * lo + Math.random() * ms * (hi - lo);
