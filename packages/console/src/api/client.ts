import { createClient, type PointsClient } from "@points/sdk";
import { API_BASE, withCredentials } from "./transport";

// Kept apart from transport.ts: the SDK's client (and ethers with it) loads with the pages that
// use it, not with the sign-in page.
export { API_BASE, withCredentials };

/** An SDK client bound to one program (the dashboard's) or to none (the wizard). */
export function sdk(program?: string): PointsClient {
  return createClient({ baseUrl: API_BASE, fetch: withCredentials, program });
}
