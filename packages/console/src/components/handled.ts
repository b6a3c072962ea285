import { describeError, type Described } from "../api/errors";

/**
 * An async function as a React event handler. React drops what a handler returns, so a
 * rejection would go unhandled and the person would see nothing: here it is described and
 * handed to `show` (the page's ErrorBox state).
 */
export function handled<A extends unknown[]>(
  f: (...args: A) => Promise<unknown>,
  show: (error: Described) => void,
): (...args: A) => void {
  return (...args) => {
    f(...args).catch((e: unknown) => show(describeError(e)));
  };
}
