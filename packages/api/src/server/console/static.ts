import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import compression from "compression";
import express, { type Router } from "express";
import { packageRoot } from "../../core/packageRoot.js";

/** packages/console/dist, beside this package. */
const DEFAULT_DIST = resolve(packageRoot(import.meta.url), "../console/dist");

/** Where the built console is looked for: CONSOLE_DIST, else the console package's dist. */
export const consoleDistDir = (configured?: string) => (configured ? resolve(configured) : DEFAULT_DIST);

/**
 * Serves the built console under /console/: its files, and index.html for client-side routes.
 * The API's own /console/v1 and /console/dev paths never fall back to the page. Nothing is
 * served while the console is not built (the request ends in the 404 envelope).
 */
export function consoleStatic(dir: string): Router {
  // Strict: "/console" (redirected) and "/console/" (the page) are different paths.
  const router = express.Router({ strict: true });
  const index = join(dir, "index.html");
  router.get("/console", (_req, res) => res.redirect(301, "/console/"));
  // The console's files gzipped for browsers that ask (a third of the bytes of its JavaScript):
  // only here, API answers are small JSON and stay as they are.
  router.use("/console", compression());
  router.use(
    "/console",
    express.static(dir, {
      index: false,
      redirect: false,
      // Vite names assets by content hash: they never change under one name.
      setHeaders: (res, path) => {
        const immutable = path.startsWith(join(dir, "assets"));
        res.setHeader("Cache-Control", immutable ? "public, max-age=31536000, immutable" : "no-cache");
      },
    }),
  );
  router.get("/console/{*rest}", (req, res, next) => {
    if (/^\/console\/(v1|dev)(\/|$)/.test(req.path) || !existsSync(index)) return next();
    // A path with a file extension is a missing file, not a client route.
    if (/\.[A-Za-z0-9]+$/.test(req.path)) return next();
    res.setHeader("Cache-Control", "no-cache");
    res.sendFile(index);
  });
  return router;
}
