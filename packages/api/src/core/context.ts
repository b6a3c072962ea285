import type { Redis } from "ioredis";
import type { Logger } from "pino";
import type { z } from "zod";
import type { RouteDef, UnsignedTx } from "@points/schema";
import type { Call } from "./chain/build.js";
import type { Config } from "./config/env.js";
import type { Db } from "./db/db.js";
import type { ProgramRegistry } from "./registry/programs.js";
import type { ApiKeys } from "./auth/apiKeys.js";
import type { Chains } from "./chain/client.js";
import type { TaskRepo } from "./onboarding/tasks.js";
import type { Caller } from "./auth/caller.js";
import type { LoginCodes } from "./console/codes.js";
import type { Sessions } from "./console/sessions.js";
import type { ConsoleUsers } from "./console/users.js";
import type { Mailer } from "./console/mailer.js";
import type { ExecutorSigners } from "./signer/executors.js";

/** The console's services: sign-in codes, sessions, users and their wizard, the mailer. */
export interface ConsoleServices {
  codes: LoginCodes;
  sessions: Sessions;
  users: ConsoleUsers;
  mailer: Mailer;
}

/** What every handler may use; built once at start. */
export interface Ctx {
  config: Config;
  db: Db;
  programs: ProgramRegistry;
  keys: ApiKeys;
  chains: Chains;
  logger: Logger;
  tasks: TaskRepo;
  /** Wakes the in-process onboarding worker, when there is one. */
  pokeWorker: () => void;
  /** Wakes the in-process webhook dispatcher, when there is one (deliveries were queued or re-armed). */
  pokeWebhooks: () => void;
  console: ConsoleServices;
  /** The executor keys (local or in an HSM), opened and checked at start. */
  signers: ExecutorSigners;
  /** Redis for the shared request budgets, when REDIS_URL is set (opened and pinged at start). */
  redis?: Redis;
}

/** The parts of the HTTP exchange a handler may touch (the console's session cookie). */
export interface HttpExchange {
  /** The client's address (honours TRUST_PROXY). */
  ip: string;
  /** The client is on this machine (the socket and, behind a proxy, the forwarded address). */
  loopback: boolean;
  /** The session cookie's value as sent (live or not). */
  sessionToken: string | undefined;
  setSessionCookie(token: string, expiresAt: Date): void;
  clearSessionCookie(): void;
  /** Answers this success status instead of the route's: one of the route's `alsoAnswers`. */
  answerStatus(status: number): void;
}

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

/** A validated request of route `R`. */
export interface Input<R extends RouteDef> {
  /** Request headers (for Idempotency-Key). */
  headers: import("node:http").IncomingHttpHeaders;
  params: Out<NonNullable<R["params"]>>;
  query: Out<NonNullable<R["query"]>>;
  body: Out<NonNullable<R["body"]>>;
  /** Who is calling: scopes what the handler shows or creates (see ownerOf). */
  caller: Caller;
  http: HttpExchange;
}

type Data<R extends RouteDef> = z.output<R["response"]> extends { data: infer D } ? D : never;

/** The function behind one route: validated input in, the envelope's `data` out. */
export type Handler<R extends RouteDef> = (input: Input<R>, ctx: Ctx) => Promise<Data<R>>;

/**
 * The function behind a build route: validated input in, the contract call out. The service
 * builds it alone or into a Safe batch (docs/architecture.md#building-a-transaction).
 */
export type BuildHandler<R extends RouteDef> = (input: Input<R>, ctx: Ctx) => Promise<Call>;

/** A route's handler: a build route's plans a call, every other route's answers. */
export type RouteHandler<R extends RouteDef> = [Data<R>] extends [UnsignedTx] ? BuildHandler<R> : Handler<R>;
