import type { RouteName, UnsignedTx } from "@points/schema";
import { send, type ClientOptions } from "./http.js";
import { prepare } from "./transaction.js";
import type { RequestInput, ResponseData } from "./types.js";
import type { Core } from "./namespaces/core.js";
import { factoryNamespace, pointsNamespace } from "./namespaces/allowlists.js";
import { vaultNamespace } from "./namespaces/vault.js";
import { buildNamespace, freezeNamespace, readNamespace, redeemNamespace, rolesNamespace } from "./namespaces/api.js";
import { onboardingNamespace } from "./namespaces/onboarding.js";
import { ledgerNamespace } from "./namespaces/ledger.js";
import { issuerFactory } from "./issuer.js";

export type PointsClient = ReturnType<typeof createClient>;

/**
 * A client of the points API. Every method sends one route of the schema table through
 * `request`; writes resolve to the API's unsigned transaction with `send(signer)`.
 */
export function createClient(options: ClientOptions) {
  const opts = { ...options };
  // Required arguments come as a rest tuple so routes without input need none.
  function request<N extends RouteName>(
    name: N,
    ...input: {} extends RequestInput<N> ? [input?: RequestInput<N>] : [input: RequestInput<N>]
  ): Promise<ResponseData<N>> {
    return send(opts, name, input[0]);
  }
  const core: Core = {
    request: (name, input, call) => send(opts, name, input, call),
    write: async (name, input, w = {}) => {
      const { nonce, idempotencyKey } = w;
      const given = input as { body?: object; headers?: Record<string, string> };
      const body = nonce === undefined ? given.body : { ...given.body, nonce };
      const headers =
        idempotencyKey === undefined ? given.headers : { ...given.headers, "idempotency-key": idempotencyKey };
      return prepare((await send(opts, name, { ...input, body, headers } as typeof input, w)) as UnsignedTx);
    },
    program: opts.program,
  };
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
    onboarding: onboardingNamespace(core),
    ledger: ledgerNamespace(core),
    /** An issuer of pSP for orders, exactly once per order reference (see {@link issuerFactory}). */
    issuer: issuerFactory(core),
  };
}
