import type { Express } from "express";
import { ApiError } from "../../core/errors.js";

/**
 * Known paths answer every method: OPTIONS lists the methods the path serves (200, in the
 * envelope), any other unserved method is 405 with the same `Allow`. No CORS header is sent:
 * the service has no cross-origin policy, so a browser on another origin is refused by default.
 */
export function methodsOfPaths(app: Express, served: [method: string, path: string][]) {
  const byPath = new Map<string, Set<string>>();
  for (const [method, path] of served) {
    const methods = byPath.get(path) ?? new Set<string>(["OPTIONS"]);
    methods.add(method.toUpperCase());
    if (method.toUpperCase() === "GET") methods.add("HEAD");
    byPath.set(path, methods);
  }
  for (const [path, methods] of byPath) {
    const allow = [...methods].sort().join(", ");
    app.all(path, (req, res, next) => {
      res.setHeader("Allow", allow);
      if (req.method === "OPTIONS") return void res.json({ success: true, data: { allow: [...methods].sort() } });
      next(new ApiError("METHOD_NOT_ALLOWED", `${req.method} is not served on ${req.path}; allowed: ${allow}`));
    });
  }
}
