import { randomBytes } from "node:crypto";
import { getAddress } from "ethers";
import { isDevChainId } from "@points/contracts/program";
import type { Ctx } from "../context.js";
import { isLoopbackUrl } from "../config/env.js";

/** Hosts that only this machine reaches. */
const LOOPBACK_HOSTS = /^(localhost|::1|127(\.[0-9]{1,3}){3})$/;

/**
 * `pnpm start`'s demo account: a console account, with a fresh e-mail on every start, whose
 * dashboard opens an already registered program, so a newcomer sees a working program at once
 * (docs/deployment.md#the-demo-program-in-the-console). Called in-process only (no HTTP route,
 * no table of its own), and refused unless the program's chain is a dev chain id on a loopback
 * RPC and the API listens on a loopback host: nowhere else may an account skip the deploy.
 */
export async function createDevProgramAccount(
  ctx: Ctx,
  programRef: string,
  wallet: string,
): Promise<{ email: string }> {
  const program = await ctx.programs.get(programRef);
  const chain = ctx.config.chains.find((c) => String(c.chainId) === program.chainId);
  if (!chain || !isDevChainId(chain.chainId) || !isLoopbackUrl(chain.rpcUrl)) {
    throw new Error(`program ${program.id} is not on a dev chain served on this machine: no demo account`);
  }
  if (!LOOPBACK_HOSTS.test(ctx.config.host) || ctx.config.production) {
    throw new Error(`the API listens on ${ctx.config.host}: a demo account needs a loopback host outside production`);
  }
  // Fresh every start: an e-mail seen before never opens this program again after a restart.
  const email = `demo-${randomBytes(6).toString("hex")}@console.localhost`;
  await ctx.console.users.attachProgram(email, program.id, {
    wallet: getAddress(wallet),
    chainId: chain.chainId,
    brand: program.brand,
  });
  return { email };
}
