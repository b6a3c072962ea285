import { OpenAPIRegistry, OpenApiGeneratorV31 } from "@asteasolutions/zod-to-openapi";
import type { z } from "zod";
import { ErrorEnvelope, ERROR_CODES } from "../envelope.js";
import type { RouteDef } from "../route.js";
import { SESSION_COOKIE } from "../routes/console/console.js";
import { fileRoutes } from "../routes/ledger/exports.js";
import { routes } from "../index.js";
import { fillConfiguredChains } from "./chains.js";
import { errorCodesOf, ERRORS } from "./errors.js";
import { NAMED_FORMATS } from "./formats.js";
import { registerOpsPaths } from "./ops.js";
import { securityOf } from "./security.js";

const openApiPath = (path: string) => path.replace(/:([A-Za-z]+)/g, "{$1}");

/**
 * The OpenAPI 3.1 document, generated from the same schemas that validate requests, so the
 * document cannot drift from the service.
 */
export type OpenApiDocument = ReturnType<OpenApiGeneratorV31["generateDocument"]>;

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
