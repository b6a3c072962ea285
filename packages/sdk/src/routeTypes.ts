import type { RouteName } from "@points/schema";

/** Every route but the web console's own (sign-in, wizard), which are not the SDK's. */
export type PublicRouteName = Exclude<RouteName, `console${string}`>;

/** Method and path of a route, and whether it builds a transaction. */
export interface RouteEntry {
  readonly method: "get" | "post" | "put" | "delete";
  /** Express-style path, `:name` for parameters. */
  readonly path: string;
  readonly build?: true;
  /** Answers a file (CSV) instead of the JSON envelope: the call resolves to its text. */
  readonly file?: true;
}
