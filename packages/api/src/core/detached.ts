/**
 * `fn` as a callback for a caller that ignores what it returns (a timer, an event or signal
 * listener): its promise is not left floating, and a rejection goes to `onError` (the caller's
 * logger) instead of becoming an unhandled rejection.
 */
export function detached<A extends unknown[]>(
  fn: (...args: A) => Promise<unknown>,
  onError: (e: unknown) => void,
): (...args: A) => void {
  return (...args) => {
    fn(...args).catch(onError);
  };
}
