import type { Logger } from "pino";
import type { z } from "zod";
import type { RouteDef } from "@points/schema";
import type { Config } from "./config/env.js";
import type { Db } from "./db/db.js";
import type { ProgramRegistry } from "./registry/programs.js";
import type { ApiKeys } from "./auth/apiKeys.js";
import type { Chains } from "./chain/client.js";

/** What every handler may use; built once at start. */
export interface Ctx {
  config: Config;
  db: Db;
  programs: ProgramRegistry;
  keys: ApiKeys;
  chains: Chains;
  logger: Logger;
}

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

/** A validated request of route `R`. */
export interface Input<R extends RouteDef> {
  params: Out<NonNullable<R["params"]>>;
  query: Out<NonNullable<R["query"]>>;
  body: Out<NonNullable<R["body"]>>;
}

type Data<R extends RouteDef> = z.output<R["response"]> extends { data: infer D } ? D : never;

/** The function behind one route: validated input in, the envelope's `data` out. */
export type Handler<R extends RouteDef> = (input: Input<R>, ctx: Ctx) => Promise<Data<R>>;
