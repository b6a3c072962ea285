import { startApi as startTestApi, type TestApi as TestkitApi } from "@points/testkit";
import * as api from "../../src/index.js";
import type { ServiceOptions } from "../../src/service.js";
import { assertMatchesDocument } from "./documentHook.js";

export type TestApi = TestkitApi<api.Service>;

/**
 * The API from this package's source on a free port, in-memory database, chain = the local
 * node, dev mailbox on (the tests read sign-in codes from it), the ledger's indexer off unless
 * `env.LEDGER` turns it on (it would add its own RPC calls to what tests count). Every answer `call` gets is
 * checked against the served OpenAPI document.
 */
export const startApi = (
  nodeUrl: string,
  env: Record<string, string> = {},
  opts: ServiceOptions = {},
): Promise<TestApi> =>
  startTestApi(api, nodeUrl, { DEV_MAILBOX: "1", LEDGER: "off", ...env }, opts, { onResponse: assertMatchesDocument });

/** The scopes a key needs to onboard a program (and build and read around it). */
export const DEPLOY_SCOPES = ["build", "read", "deploy"] as const;

/** The Authorization header of a new API key `name` of `service` with `scopes` (the default scopes when omitted). */
export async function bearerFor(
  service: api.Service,
  name: string,
  scopes?: Parameters<api.Service["ctx"]["keys"]["create"]>[1],
): Promise<{ authorization: string }> {
  const { key } = await service.ctx.keys.create(name, scopes);
  return { authorization: `Bearer ${key}` };
}
