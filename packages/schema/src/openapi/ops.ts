import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { ErrorEnvelope } from "../envelope.js";

const ReadyCheck = z
  .object({
    name: z.string().meta({ description: "`database`, `migrations` or `chain:<chainId>`" }),
    ok: z.boolean(),
    reason: z.enum(["unreachable", "pending", "CHAIN_MISMATCH"]).optional(),
    error: z.string().optional(),
  })
  .meta({ id: "ReadyCheck" });

/** Operations of the OpenAPI document outside the route table (a test counts them beside the table's). */
export const OPS_OPERATIONS = ["GET /ready"] as const;

/** The operations routes outside the route table: readiness (and, with it, what a probe reads). */
export function registerOpsPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    operationId: "ready",
    method: "get",
    path: "/ready",
    summary: "Whether this instance can serve (database, migrations, every chain's RPC and chain id)",
    description:
      "Distinct from `GET /health` (the process is alive). Every check runs on each call: the database answers, every migration is applied, and each configured chain has an RPC endpoint answering its chain id.",
    tags: ["operations"],
    security: [],
    responses: {
      200: {
        description: "Ready: every check passed",
        content: {
          "application/json": {
            schema: z.object({
              success: z.literal(true),
              data: z.object({ ready: z.literal(true), checks: z.array(ReadyCheck) }),
            }),
          },
        },
      },
      503: {
        description:
          "NOT_READY: `details.checks` lists every check; the failed ones have `ok: false`, `reason` and `error`",
        content: { "application/json": { schema: ErrorEnvelope } },
      },
      401: {
        description: "UNAUTHORIZED: an Authorization header was sent with a malformed or unknown key (none is needed)",
        content: { "application/json": { schema: ErrorEnvelope } },
      },
      429: {
        description: "RATE_LIMITED: this address sent too many unknown keys or session cookies",
        content: { "application/json": { schema: ErrorEnvelope } },
      },
    },
  });
}
