import { fetchRoute, type ClientOptions, type RouteInput } from "./transport.js";
import type { CallOptions, RouteEntry } from "./types.js";

export { fetchRoute, type ClientOptions, type RouteInput };

/**
 * Sends one route, given by method and path, and returns its `data`; every failure is a
 * PointsApiError, whose prerequisite (an allowlist add, an approval) can be signed and sent like
 * a build route's answer. `client.request` is this, typed by route name; call it directly for a
 * route this SDK has no name for (one an API newer than the SDK added). The transaction helpers
 * (and ethers with them) are loaded only when an error carries a prerequisite.
 */
export const callRoute = (
  opts: ClientOptions,
  route: RouteEntry,
  input?: RouteInput,
  call: CallOptions = {},
): Promise<unknown> =>
  fetchRoute(opts, route, input, call, async (tx) => (await import("./transaction.js")).prepare(tx));
