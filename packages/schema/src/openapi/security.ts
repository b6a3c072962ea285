import type { RouteDef } from "../route.js";

/** OpenAPI security of an auth mode: "key" routes take a key or a console session. */
export const securityOf = (auth: RouteDef["auth"]): Record<string, string[]>[] =>
  auth === "key" ? [{ apiKey: [] }, { consoleSession: [] }] : auth === "session" ? [{ consoleSession: [] }] : [];
