import type { routes } from "@points/schema";
import type { Handler } from "../../../core/context.js";
import { requireConfiguredChain } from "../../../core/chain/configured.js";
import { ApiError, notFound } from "../../../core/errors.js";
import { brandAvailability } from "../../../core/console/brands.js";
import { readDevMailbox } from "../../../core/console/mailer.js";

type R = typeof routes;

const sessionEmail = (caller: { kind: string; email?: string }): string => {
  if (caller.kind !== "session" || !caller.email) throw new ApiError("UNAUTHORIZED", "sign in to the console first");
  return caller.email;
};

export const consoleRequestCode: Handler<R["consoleRequestCode"]> = async ({ body, http }, ctx) => {
  await ctx.console.codes.request(body.email, http.ip);
  return { sent: true as const };
};

export const consoleVerify: Handler<R["consoleVerify"]> = async ({ body, http }, ctx) => {
  await ctx.console.codes.verify(body.email, body.code, http.ip);
  await ctx.console.users.ensure(body.email);
  // A fresh session per sign-in; a session the browser still held is ended.
  if (http.sessionToken) await ctx.console.sessions.revoke(http.sessionToken);
  const { token, expiresAt } = await ctx.console.sessions.create(body.email);
  http.setSessionCookie(token, expiresAt);
  return { email: body.email };
};

export const consoleLogout: Handler<R["consoleLogout"]> = async ({ http }, ctx) => {
  if (http.sessionToken) await ctx.console.sessions.revoke(http.sessionToken);
  http.clearSessionCookie();
  return { signedOut: true as const };
};

export const consoleMe: Handler<R["consoleMe"]> = async ({ caller, http }, ctx) => ({
  ...(await ctx.console.users.get(sessionEmail(caller))),
  provenWallet: await ctx.console.sessions.provenWallet(http.sessionToken),
});

export const consoleWizardSave: Handler<R["consoleWizardSave"]> = async ({ caller, body }, ctx) => {
  if (body.chainId != null) requireConfiguredChain(ctx, "body.chainId", body.chainId);
  return ctx.console.users.saveWizard(sessionEmail(caller), body);
};

export const consoleWizardRestart: Handler<R["consoleWizardRestart"]> = async ({ caller }, ctx) =>
  ctx.console.users.restartWizard(sessionEmail(caller));

export const consoleChains: Handler<R["consoleChains"]> = async (_input, ctx) =>
  ctx.config.chains.map((c) => ({
    chainId: c.chainId,
    name: c.name,
    testnet: c.testnet,
    explorerUrl: c.explorerUrl,
    recommended: c.testnet,
  }));

export const consoleBrandAvailable: Handler<R["consoleBrandAvailable"]> = async ({ params, query }, ctx) => {
  if (query.chainId !== undefined) requireConfiguredChain(ctx, "query.chainId", query.chainId);
  return brandAvailability(ctx.db, params.brand, query.chainId ?? null, ctx.config.deploy.brandRetryWindowSeconds);
};

export const consoleDevMailbox: Handler<R["consoleDevMailbox"]> = async ({ http }, ctx) => {
  const entries = await readDevMailbox(ctx.config, ctx.db, http.loopback);
  if (!entries) throw notFound("no dev mailbox: it is off, or this client is not on the server's machine");
  return entries;
};
