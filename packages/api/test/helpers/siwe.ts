import { SiweMessage } from "siwe";
import type { Wallet } from "ethers";
import { devWallet } from "@points/testkit";
import { signIn, withSession } from "./console.js";

/** The challenge the server issues to a session (POST /console/v1/wallet/nonce). */
export async function siweChallenge(url: string, session: string) {
  const res = await withSession(url, session, "POST", "/console/v1/wallet/nonce");
  if (res.status !== 200) throw new Error(`nonce: ${res.status} ${res.text}`);
  return res.body.data as { nonce: string; domain: string; uri: string; chainIds: number[]; expirationTime: string };
}

/** A SIWE message built from a challenge as the console builds it; `overrides` bend one field. */
export function siweMessage(
  challenge: Awaited<ReturnType<typeof siweChallenge>>,
  address: string,
  overrides: Partial<{ domain: string; uri: string; chainId: number; nonce: string; expirationTime?: string }> = {},
) {
  return new SiweMessage({
    domain: challenge.domain,
    address,
    statement: "Prove that this wallet is yours to deploy a points program with it.",
    uri: challenge.uri,
    version: "1",
    chainId: challenge.chainIds[0],
    nonce: challenge.nonce,
    issuedAt: new Date().toISOString(),
    expirationTime: challenge.expirationTime,
    ...overrides,
  }).prepareMessage();
}

/** Signs `message` with `wallet` and sends it to the prove route under `session`. */
export async function proveWith(url: string, session: string, wallet: Wallet, message: string) {
  const signature = await wallet.signMessage(message);
  return withSession(url, session, "POST", "/console/v1/wallet/prove", { message, signature });
}

/** The whole proof, as the console does it when a wallet is connected. */
export async function proveWallet(url: string, session: string, wallet: Wallet) {
  return proveWith(url, session, wallet, siweMessage(await siweChallenge(url, session), wallet.address));
}

/** Signs in and proves the dev wallet `index` (account 1 is the tests' usual deployer). */
export async function signInWithWallet(url: string, email: string, index = 1): Promise<string> {
  const session = await signIn(url, email);
  const res = await proveWallet(url, session, devWallet(index));
  if (res.status !== 200) throw new Error(`prove: ${res.status} ${res.text}`);
  return session;
}
