import { OpenAPIRegistry, OpenApiGeneratorV31 } from "@asteasolutions/zod-to-openapi";
import {
  CONFIGURED_CHAINS,
  ErrorEnvelope,
  ERROR_CODES,
  MAX_UINT256,
  SESSION_COOKIE,
  fileRoutes,
  isBuildRoute,
  routes,
  type RouteDef,
} from "@points/schema";
import type { z } from "zod";
import { registerOpsPaths } from "./ops.js";

/** OpenAPI security of an auth mode: "key" routes take a key or a console session. */
export const securityOf = (auth: RouteDef["auth"]): Record<string, string[]>[] =>
  auth === "key" ? [{ apiKey: [] }, { consoleSession: [] }] : auth === "session" ? [{ consoleSession: [] }] : [];

const openApiPath = (path: string) => path.replace(/:([A-Za-z]+)/g, "{$1}");

/**
 * The OpenAPI 3.1 document, generated from the same schemas that validate requests, so the
 * document cannot drift from the service.
 */
export type OpenApiDocument = ReturnType<OpenApiGeneratorV31["generateDocument"]>;

/** The named formats the document's schemas use, for validators and generators to register. */
export const NAMED_FORMATS = {
  "eip55-address": "0x + 40 hex digits, all lowercase, all uppercase, or mixed case with a valid EIP-55 checksum",
  uint256: `A decimal integer string of at most ${MAX_UINT256} (2^256 - 1)`,
  email: "An e-mail address: local part, @, a domain with a dot and a top-level name of 2+ letters",
};

const ERRORS: Record<string, string> = {
  INVALID_INPUT: "the request is malformed; the message names the field",
  INVALID_ROWS:
    "bulk routes: rows with a bad address, amount or metadata, or duplicates; details.rows lists every one (row, field, reason)",
  UNAUTHORIZED: "missing, unknown or revoked API key, or no console session",
  MISSING_ROLE: "the signer lacks an on-chain role",
  FORBIDDEN:
    "the API key lacks the scope the route needs, the console account is not approved to deploy, or a state-changing request with a session cookie (or to /console/) came from another Origin than the console's (details.reason = origin)",
  DEV_CHAIN_ONLY:
    "a development-only route called for a chain that is not a dev chain id on loopback RPCs, or in production",
  NOT_FOUND: "no such program, campaign (CampaignNotFound, on every route naming one), request, task or resource",
  CONFLICT: "the request conflicts with the resource's state",
  PAYLOAD_TOO_LARGE: "the body is larger than 100 kB (2 MB on bulk routes)",
  WOULD_REVERT: "the simulation reverted, or a chain precondition does not hold",
  RATE_LIMITED: "too many requests: slow down",
  INTERNAL: "an unexpected failure of the service or a service it needs (never the request's fault)",
  CHAIN_UNAVAILABLE: "the chain's RPC did not answer",
  CHAIN_MISMATCH:
    "every RPC endpoint of the chain answers another chain id (a node swapped behind its URL): nothing was built, read or sent; retry once the endpoint serves the chain again",
};

/** Statuses of a route's answers, by error code. */
function errorCodesOf(route: RouteDef): (keyof typeof ERROR_CODES)[] {
  const codes = new Set<keyof typeof ERROR_CODES>([
    "INVALID_INPUT",
    "NOT_FOUND",
    "RATE_LIMITED",
    "INTERNAL",
    "CHAIN_UNAVAILABLE",
    "CHAIN_MISMATCH",
  ]);
  if (route.auth !== "open" || !route.public) codes.add("UNAUTHORIZED");
  if (route.method !== "get") {
    codes.add("MISSING_ROLE");
    codes.add("WOULD_REVERT");
  }
  if (route.body) codes.add("PAYLOAD_TOO_LARGE");
  // A key sent to any route is checked for the route's scope.
  codes.add("FORBIDDEN");
  // An Idempotency-Key reused with another body, or an explicit nonce already mined.
  if (isBuildRoute(route)) codes.add("CONFLICT");
  for (const c of route.errors ?? []) codes.add(c);
  return [...codes].sort((a, b) => ERROR_CODES[a] - ERROR_CODES[b]);
}

/** Lists the configured chains wherever a schema is marked as taking only those. */
function fillConfiguredChains(node: unknown, chainIds: number[]): void {
  if (Array.isArray(node)) return node.forEach((n) => fillConfiguredChains(n, chainIds));
  if (typeof node !== "object" || node === null) return;
  const o = node as Record<string, unknown>;
  if (o[CONFIGURED_CHAINS] === true) {
    const types = ([] as unknown[]).concat(o.type);
    o.enum = [
      ...(types.includes("string") ? chainIds.map(String) : chainIds),
      ...(types.includes("null") ? [null] : []),
    ];
  }
  for (const v of Object.values(o)) fillConfiguredChains(v, chainIds);
}

export interface DocumentOptions {
  /** The chains this server serves: chain ids elsewhere are refused, so the document says so. */
  chainIds?: number[];
}

export function openApiDocument(options: DocumentOptions = {}): OpenApiDocument {
  const registry = new OpenAPIRegistry();
  registry.registerComponent("securitySchemes", "apiKey", {
    type: "http",
    scheme: "bearer",
    description:
      "An API key. Its scopes are checked on every route it is sent to: `read` for GET routes and every /api/v1/ledger route (webhook subscriptions deliver ledger history), `deploy` for onboarding, `admin` for operator routes (and every other scope), `build` for the rest",
  });
  registry.registerComponent("securitySchemes", "consoleSession", {
    type: "apiKey",
    in: "cookie",
    name: SESSION_COOKIE,
    description: "The web console's session (POST /console/v1/auth/verify sets it)",
  });
  const errorResponse = (description: string) => ({
    description,
    content: { "application/json": { schema: ErrorEnvelope } },
  });
  for (const [name, route] of Object.entries(routes) as [string, RouteDef][]) {
    registry.registerPath({
      operationId: name,
      method: route.method,
      path: openApiPath(route.path),
      summary: route.summary,
      tags: [route.tag],
      security: securityOf(route.auth),
      request: {
        ...(route.params ? { params: route.params as z.ZodObject } : {}),
        ...(route.query ? { query: route.query as z.ZodObject } : {}),
        ...(route.body ? { body: { content: { "application/json": { schema: route.body } }, required: true } } : {}),
      },
      responses: {
        [route.status ?? 200]: { description: "Success", content: { "application/json": { schema: route.response } } },
        ...Object.fromEntries(
          Object.entries(route.alsoAnswers ?? {}).map(([status, description]) => [
            status,
            { description, content: { "application/json": { schema: route.response } } },
          ]),
        ),
        ...Object.fromEntries(
          errorCodesOf(route).map((c) => [ERROR_CODES[c], errorResponse(`${c}: ${ERRORS[c] ?? c}`)]),
        ),
      },
    });
  }
  for (const [name, route] of Object.entries(fileRoutes)) {
    registry.registerPath({
      operationId: name,
      method: route.method,
      path: openApiPath(route.path),
      summary: route.summary,
      description: route.description,
      tags: [route.tag],
      security: securityOf(route.auth),
      request: { params: route.params as z.ZodObject, query: route.query as z.ZodObject },
      responses: {
        200: {
          description: "The file, streamed",
          headers: {
            "Ledger-Block": {
              description: "The block the file is consistent with; empty until the indexer reached the program",
              schema: { type: "string", pattern: "^[0-9]*$" },
            },
          },
          content: { [route.contentType]: { schema: { type: "string" } } },
        },
        ...Object.fromEntries(
          errorCodesOf(route).map((c) => [ERROR_CODES[c], errorResponse(`${c}: ${ERRORS[c] ?? c}`)]),
        ),
      },
    });
  }
  registerOpsPaths(registry);
  const doc = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: "3.1.0",
    info: {
      title: "Points platform API",
      version: "1.0.0",
      license: { name: "MIT", identifier: "MIT" },
      description: [
        "Builds unsigned transactions (the caller signs), reads chain state.",
        `Error codes and statuses: ${Object.entries(ERROR_CODES)
          .map(([c, s]) => `${c} ${s}`)
          .join(", ")}.`,
        "Every answer, success or error, is JSON in the envelope. A method a path does not serve has no",
        "operation: it answers 405 METHOD_NOT_ALLOWED with an `Allow` header naming the methods it serves,",
        "and OPTIONS answers 200 with the same `Allow` header. The service sends no CORS headers.",
        `Named formats: ${Object.entries(NAMED_FORMATS)
          .map(([f, d]) => `\`${f}\`: ${d}`)
          .join("; ")}.`,
      ].join(" "),
    },
    servers: [{ url: "/" }],
  });
  const envelope = doc.components?.schemas?.ErrorEnvelope as Record<string, unknown> | undefined;
  if (envelope) {
    envelope.description =
      "Every error. 405 METHOD_NOT_ALLOWED (a known path, a method it does not serve, with `Allow`) " +
      "is answered in this envelope too; it belongs to no operation.";
  }
  if (options.chainIds) fillConfiguredChains(doc, options.chainIds);
  return Object.assign(doc, { "x-formats": NAMED_FORMATS });
}
