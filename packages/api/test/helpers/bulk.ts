import { getAddress, keccak256, toUtf8Bytes } from "ethers";
import type { E2E } from "./e2e.js";

export const CAMPAIGN = "bulk-drop";
export const CAMPAIGN_ID = keccak256(toUtf8Bytes(CAMPAIGN));

/** `n` fresh recipient addresses, deterministic per `seed`, checksummed. */
export const recipients = (n: number, seed = "r") =>
  Array.from({ length: n }, (_, i) => getAddress("0x" + keccak256(toUtf8Bytes(`${seed}:${i}`)).slice(-40)));

/** The brand creates and funds campaign CAMPAIGN with `budget` SP, carol on its settlement allowlist. */
export async function bulkCampaign(e: E2E, budget: bigint) {
  const { brand, carol } = e.who;
  await e.giveSp(brand.address, budget);
  await (await e.c.points.connect(brand).approve(e.record.pspVault, budget)).wait();
  await (await e.c.pspVault.connect(brand).createCampaign(CAMPAIGN_ID, budget, [carol.address], [], "bulk")).wait();
}

/** pSP of `holder` in CAMPAIGN. */
export const pspOf = (e: E2E, holder: string) => e.c.pspVault.balanceOf(CAMPAIGN_ID, holder);
