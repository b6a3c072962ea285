import type { UnsignedTx } from "./types.js";
import { callRoute, type ClientOptions, type RouteInput } from "./http.js";
import { routeTable } from "./routeTable.js";
import { PointsApiError } from "./errors.js";
import type { CallOptions, PublicRouteName, RequestInput, ResponseData } from "./types.js";
import type { Core } from "./namespaces/core.js";
import { factoryNamespace, pointsNamespace } from "./namespaces/allowlists.js";
import { vaultNamespace } from "./namespaces/vault.js";
import { buildNamespace } from "./namespaces/build.js";
import { redeemNamespace } from "./namespaces/redeem.js";
import { readNamespace } from "./namespaces/read.js";
import { rolesNamespace } from "./namespaces/roles.js";
import { freezeNamespace } from "./namespaces/freeze.js";
import { onboardingNamespace } from "./namespaces/onboarding.js";
import { ledgerNamespace } from "./namespaces/ledger.js";
import { ordersNamespace } from "./namespaces/orders.js";
import { operatorNamespace } from "./namespaces/operator.js";
import { safeNamespace } from "./namespaces/safe.js";
import { bulkNamespace } from "./namespaces/bulk.js";
import { deskNamespace } from "./namespaces/desk.js";
import { issuerFactory } from "./issuer.js";
import { devNamespace } from "./namespaces/dev.js";
import { setupNamespace } from "./namespaces/setup.js";
import { settingsNamespace } from "./namespaces/settings.js";

export type PointsClient = ReturnType<typeof createClient>;

/**
 * A client of the points API. Every method sends one route of the schema table through
 * `request`; writes resolve to the API's unsigned transaction with `send(signer)`.
 */
export function createClient(options: ClientOptions) {
  const opts = { ...options };
  const send = async <N extends PublicRouteName>(name: N, input?: RequestInput<N>, call?: CallOptions) => {
    // Own keys only: a plain-JS caller's "toString" or a console route name is no route.
    if (!Object.hasOwn(routeTable, name)) throw new PointsApiError("INVALID_INPUT", `the SDK has no route ${name}`);
    return callRoute(opts, routeTable[name], input as RouteInput | undefined, call) as Promise<ResponseData<N>>;
  };
  // Required arguments come as a rest tuple so routes without input need none.
  function request<N extends PublicRouteName>(
    name: N,
    ...input: {} extends RequestInput<N> ? [input?: RequestInput<N>] : [input: RequestInput<N>]
  ): Promise<ResponseData<N>> {
    return send(name, input[0]);
  }
  const core: Core = {
    request: send,
    write: async (name, input, w = {}) => {
      // A key of its own by default (with an API key, which the API needs for keys): a build
      // whose answer was lost is retried and answered the same transaction.
      const { nonce, idempotencyKey = opts.apiKey ? globalThis.crypto.randomUUID() : undefined } = w;
      const given = input as { body?: object; headers?: Record<string, string> };
      const body = nonce === undefined ? given.body : { ...given.body, nonce };
      const headers =
        idempotencyKey === undefined ? given.headers : { ...given.headers, "idempotency-key": idempotencyKey };
      const data = (await send(name, { ...input, body, headers } as typeof input, w)) as UnsignedTx;
      // The transaction helpers bring ethers: loaded by the first write, never by a read.
      return (await import("./transaction.js")).prepare(data);
    },
    file: (route, input, call) => callRoute(opts, { ...route, file: true }, input, call) as Promise<string>,
    program: opts.program,
  };
  const safe = safeNamespace(core);
  const ledger = ledgerNamespace(core);
  const orders = ordersNamespace(ledger);
  return {
    request,
    factory: factoryNamespace(core),
    points: pointsNamespace(core),
    vault: vaultNamespace(core),
    build: buildNamespace(core),
    redeem: redeemNamespace(core),
    read: readNamespace(core),
    roles: rolesNamespace(core),
    freeze: freezeNamespace(core),
    /** The Factory's settings: redeem delay, fees, fee receiver. */
    settings: settingsNamespace(core),
    onboarding: onboardingNamespace(core),
    /** Operator routes (admin key): every tenant's webhooks. */
    operator: operatorNamespace(core),
    ledger,
    /** Whether an order reference was issued, settled or clawed back, from the ledger (`orders.find(ref, {salt, to})`). */
    orders,
    safe,
    bulk: bulkNamespace(core),
    /** The redemption desk: policy, queue, approvals and rejections (docs/deployment.md#redemption-desk). */
    desk: deskNamespace(core),
    /** An issuer of pSP for orders that also settles and claws them back, each exactly once per order reference (see {@link issuerFactory}). */
    issuer: issuerFactory(core, orders),
    /** Brand setup for issuing pSP, step by step from a wallet or as one Safe batch. */
    setup: setupNamespace(core, safe.batch),
    /** Development chains only: the mock collateral faucet. */
    dev: devNamespace(core),
  };
}
