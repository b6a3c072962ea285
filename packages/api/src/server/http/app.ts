import { sameOriginWrites } from "./origin.js";
import express, { type Express } from "express";
import helmet from "helmet";
import { isBuildRoute, routes, type RouteDef, type RouteName } from "@points/schema";
import type { BuildHandler, Ctx, Handler, RouteHandler } from "../../core/context.js";
import { authenticate, identify } from "./auth.js";
import { errorHandler, notFoundHandler } from "./errors.js";
import { httpLogger } from "./logger.js";
import { httpTracing } from "./tracing.js";
import { trace } from "@opentelemetry/api";
import { rateLimiter } from "./rateLimit.js";
import { limitStore } from "./sharedStore.js";
import { bulkLimits } from "./bulkLimits.js";
import { requireKeyOffTestnet } from "./buildGate.js";
import { parsePart } from "./validate.js";
import { idempotentBuild } from "./idempotency.js";
import { build } from "../../core/program/target.js";
import { methodsOfPaths } from "./methods.js";
import { isLoopbackRequest, sessionExchange } from "./session.js";
import { consoleDistDir, consoleStatic } from "../console/static.js";
import { mailboxPage, readDevMailbox } from "../../core/console/mailer.js";
import { openApiDocument } from "@points/schema/openapi";
import { referencePage } from "../openapi/reference.js";
import { FILE_ROUTE_PATHS, mountFileRoutes } from "./fileRoutes.js";
import { readyRoute } from "./ready.js";
import { httpMetrics, metricsRoute } from "./metrics.js";

/** Every route's handler: a build route's returns its call, which the app builds (docs/architecture.md#building-a-transaction). */
export type Handlers = { [K in RouteName]: RouteHandler<(typeof routes)[K]> };

/** The HTTP app: every route of the schema table, validated, authenticated and enveloped. */
export function createApp(ctx: Ctx, handlers: Handlers): Express {
  const app = express();
  app.disable("x-powered-by");
  if (ctx.config.trustProxy !== undefined) app.set("trust proxy", ctx.config.trustProxy);
  app.use(httpTracing);
  app.use(httpLogger(ctx.logger));
  app.use(httpMetrics);
  // CSP stays "self" only (the console is built by Vite: no inline scripts). No
  // upgrade-insecure-requests: it breaks the console served over plain http on a LAN address.
  app.use(helmet({ contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } } }));
  app.use(identify(ctx));
  app.use(sameOriginWrites(ctx));
  app.use(rateLimiter(ctx.config, limitStore(ctx, "rl:")));
  app.use(...bulkLimits(ctx.config, limitStore(ctx, "rl-bulk:")));
  // Not strict: a JSON `null` or `3` body parses, so validation can say what is wrong with it.
  app.use(express.json({ limit: "100kb", strict: false }));

  const doc = openApiDocument({ chainIds: ctx.config.chains.map((c) => c.chainId) });
  app.get("/api/v1/openapi.json", (_req, res) => void res.json(doc));
  const reference = referencePage(doc);
  app.get("/api/v1/reference", (_req, res) => void res.type("html").send(reference));
  app.get("/health", (_req, res) => void res.json({ success: true, data: { status: "ok" } }));
  app.get("/ready", readyRoute(ctx));
  app.get("/metrics", metricsRoute(ctx));

  mountFileRoutes(app, ctx);
  for (const [name, route] of Object.entries(routes) as [RouteName, RouteDef][]) {
    const handler = handlers[name] as Handler<RouteDef> | BuildHandler<RouteDef>;
    const builds = isBuildRoute(route);
    app[route.method](route.path, async (req, res, next) => {
      try {
        const caller = authenticate(req, res, route, ctx);
        let status = route.status ?? 200;
        const input = {
          headers: req.headers,
          params: parsePart(route.params, req.params, "params"),
          query: parsePart(route.query, req.query, "query"),
          body: parsePart(route.body, req.body, "body"),
          caller,
          http: {
            ...sessionExchange(req, res, ctx),
            answerStatus: (s: number) => {
              if (!route.alsoAnswers?.[s]) throw new Error(`${name} does not document status ${s}`);
              status = s;
            },
          },
        };
        await requireKeyOffTestnet(route, caller, input.params as never, input.body as never, ctx);
        let data: unknown;
        if (builds) {
          const nonce = (input.body as { nonce?: number }).nonce;
          const plan = handler as BuildHandler<RouteDef>;
          const built = await idempotentBuild(ctx, { route: name, ...input }, async () => {
            const call = await plan(input as never, ctx);
            trace
              .getActiveSpan()
              ?.setAttributes({ "points.program": call.program.id, "points.chain_id": call.program.chainId });
            return build(ctx, call, { nonce });
          });
          if (built.replayed) res.setHeader("Idempotent-Replayed", "true");
          data = built.data;
        } else {
          data = await handler(input as never, ctx);
        }
        res.status(status).json({ success: true, data });
      } catch (e) {
        next(e);
      }
    });
  }
  methodsOfPaths(app, [
    ...Object.values(routes as Record<string, RouteDef>).map((r): [string, string] => [r.method, r.path]),
    ["get", "/api/v1/openapi.json"],
    ["get", "/api/v1/reference"],
    ["get", "/health"],
    ["get", "/ready"],
    ["get", "/metrics"],
    ...FILE_ROUTE_PATHS,
  ]);
  app.get("/console/dev/mailbox", async (req, res, next) => {
    try {
      const entries = await readDevMailbox(ctx.config, ctx.db, isLoopbackRequest(req));
      if (!entries) return next();
      res.type("html").send(mailboxPage(entries));
    } catch (e) {
      next(e);
    }
  });
  app.use(consoleStatic(consoleDistDir(ctx.config.console.dist)));
  app.use(notFoundHandler);
  app.use(errorHandler);
  return app;
}
