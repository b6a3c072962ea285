import { OpenAPIRegistry, OpenApiGeneratorV31 } from "@asteasolutions/zod-to-openapi";
import { ErrorEnvelope, ERROR_CODES, SESSION_COOKIE, routes, type RouteDef } from "@points/schema";
import type { z } from "zod";

/** OpenAPI security of an auth mode: "key" routes take a key or a console session. */
export const securityOf = (auth: RouteDef["auth"]): Record<string, string[]>[] =>
  auth === "key" ? [{ apiKey: [] }, { consoleSession: [] }] : auth === "session" ? [{ consoleSession: [] }] : [];

const openApiPath = (path: string) => path.replace(/:([A-Za-z]+)/g, "{$1}");

/**
 * The OpenAPI 3.1 document, generated from the same schemas that validate requests, so the
 * document cannot drift from the service.
 */
export type OpenApiDocument = ReturnType<OpenApiGeneratorV31["generateDocument"]>;

export function openApiDocument(): OpenApiDocument {
  const registry = new OpenAPIRegistry();
  registry.registerComponent("securitySchemes", "apiKey", { type: "http", scheme: "bearer" });
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
        400: errorResponse("INVALID_INPUT: the request is malformed; the message names the field"),
        ...(route.auth !== "open"
          ? { 401: errorResponse("UNAUTHORIZED: missing, unknown or revoked API key, or no console session") }
          : {}),
        ...(route.method !== "get" ? { 403: errorResponse("MISSING_ROLE: the signer lacks an on-chain role") } : {}),
        404: errorResponse("NOT_FOUND"),
        ...(route.method !== "get" ? { 422: errorResponse("WOULD_REVERT: the simulation reverted") } : {}),
        429: errorResponse("RATE_LIMITED"),
        502: errorResponse("CHAIN_UNAVAILABLE: the chain's RPC did not answer"),
      },
    });
  }
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: "3.1.0",
    info: {
      title: "Points platform API",
      version: "1.0.0",
      description: `Builds unsigned transactions (the caller signs), reads chain state. Error codes and statuses: ${Object.entries(
        ERROR_CODES,
      )
        .map(([c, s]) => `${c} ${s}`)
        .join(", ")}.`,
    },
    servers: [{ url: "/" }],
  });
}
