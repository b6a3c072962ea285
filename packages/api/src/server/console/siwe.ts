import { randomBytes } from "node:crypto";
import type { SiweMessage } from "siwe";
import { getAddress } from "ethers";
import type { Ctx } from "../../core/context.js";
import { ApiError } from "../../core/errors.js";

/** How long a SIWE nonce, and the message built on it, may live. */
const NONCE_TTL_SECONDS = 600;
const STATEMENT = "Prove that this wallet is yours to deploy a points program with it.";

/**
 * The domain and origin a SIWE message must name: CONSOLE_ORIGIN's. Without it (development
 * only), the request's Host; in production a missing CONSOLE_ORIGIN refuses every proof (a Host
 * header is the caller's to choose, so it would let a message signed for another site in).
 */
function expectedOrigin(ctx: Ctx, host: string | undefined): URL {
  if (ctx.config.console.origin) return new URL(ctx.config.console.origin);
  if (ctx.config.production || !host) {
    throw new ApiError("FORBIDDEN", "wallet proofs need CONSOLE_ORIGIN on this server (the operator must set it)", {
      reason: "siwe",
    });
  }
  return new URL(`http://${host}`);
}

const refuse = (why: string) => new ApiError("FORBIDDEN", `wallet not proven: ${why}`, { reason: "siwe" });

/** A nonce for this session and the fields the message must carry (docs: packages/api/README.md#console-backend). */
export async function siweChallenge(ctx: Ctx, token: string, host: string | undefined) {
  const origin = expectedOrigin(ctx, host);
  const nonce = randomBytes(16).toString("hex");
  const expiresAt = await ctx.console.sessions.issueNonce(token, nonce, NONCE_TTL_SECONDS);
  return {
    nonce,
    domain: origin.host,
    uri: origin.origin,
    version: "1" as const,
    chainIds: ctx.config.chains.map((c) => c.chainId),
    statement: STATEMENT,
    issuedAt: new Date().toISOString(),
    expirationTime: expiresAt.toISOString(),
  };
}

/**
 * Checks a signed SIWE message and binds its address to this session: the nonce must have been
 * issued to this session and be unused (spent here, whatever the outcome), the domain and URI
 * the console's, the chain id a configured one, an expiry set and not past, and the signature
 * the address's (EOA; contract wallets are not supported).
 */
export async function siweProve(
  ctx: Ctx,
  token: string,
  host: string | undefined,
  body: { message: string; signature: string },
): Promise<string> {
  const origin = expectedOrigin(ctx, host);
  // Loaded on the first proof: siwe brings its own CommonJS copy of ethers, a large share of every process's start-up.
  const { SiweMessage: Message } = await import("siwe");
  let msg: SiweMessage;
  try {
    msg = new Message(body.message);
  } catch {
    // A proof that does not parse is a failed proof like any other (the grammar is EIP-4361's).
    throw refuse("body.message is not an EIP-4361 message");
  }
  const spent = await ctx.console.sessions.spendNonce(token, msg.nonce);
  if (!spent) throw refuse("the nonce was not issued to this session, was used already or expired; ask for a new one");
  if (msg.domain !== origin.host) throw refuse(`the message is for ${msg.domain}, not ${origin.host}`);
  // An RFC 3986 URI the WHATWG parser refuses is a refused proof, never a 500.
  if (!URL.canParse(msg.uri) || new URL(msg.uri).origin !== origin.origin) {
    throw refuse(`the message's URI is not on ${origin.origin}`);
  }
  if (!ctx.config.chains.some((c) => c.chainId === msg.chainId)) {
    throw refuse(`chain ${msg.chainId} is not one this server deploys to`);
  }
  if (!msg.expirationTime || new Date(msg.expirationTime).getTime() > spent.expiresAt.getTime()) {
    throw refuse("the message must expire no later than its nonce");
  }
  const result = await msg.verify(
    { signature: body.signature, domain: origin.host, nonce: msg.nonce, time: new Date().toISOString() },
    { suppressExceptions: true },
  );
  if (!result.success) throw refuse(String(result.error?.type ?? "the signature does not match"));
  const wallet = getAddress(msg.address);
  await ctx.console.sessions.setProvenWallet(token, wallet);
  return wallet;
}

/** A console deploy names the wallet its session proved; API keys are the operator's to trust. */
export async function requireProvenWallet(
  ctx: Ctx,
  caller: { kind: string },
  token: string | undefined,
  deployer: string,
) {
  if (caller.kind !== "session") return;
  const proven = await ctx.console.sessions.provenWallet(token);
  if (proven === null || getAddress(proven) !== getAddress(deployer)) {
    throw new ApiError(
      "FORBIDDEN",
      proven === null
        ? "wallet not proven: connect the deployer wallet in the console and sign the Sign-In with Ethereum message"
        : `wallet not proven: this session proved ${proven}, not ${getAddress(deployer)}`,
      { reason: "wallet" },
    );
  }
}
