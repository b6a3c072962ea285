import { deployProgram, ROLES } from "../helpers/programFixture.js";

/**
 * A program whose Points has a plain-account minter (`minter`, dave) besides the Factory, so
 * mint and burn can be called directly; minter, alice and bob are on the transfer allowlist,
 * carol and outsider are not.
 */
export async function pointsFixture() {
  const p = await deployProgram();
  const minter = p.dave;
  await p.points.connect(p.admin).grantRole(ROLES.MINTER, minter);
  for (const a of [minter, p.alice, p.bob]) await p.points.connect(p.admin).addToTransferWhitelist(a);
  return { ...p, minter };
}
