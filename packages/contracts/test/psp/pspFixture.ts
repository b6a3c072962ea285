import { expect } from "chai";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/types";
import { deployProgram, ethers, mintSp, ROLES, SP, USDC } from "../helpers/programFixture.js";

/** IPSPVault.CampaignStatus, as the bigint the ABI returns. */
export const Status = { None: 0n, Active: 1n, Paused: 2n, Closed: 3n } as const;

export const CAMPAIGN_A = ethers.id("campaign-A");
export const CAMPAIGN_B = ethers.id("campaign-B");
export const UNKNOWN = ethers.id("never-created");
export const BUDGET = SP(1000);
export const MAX_LIMIT = 2n ** 120n - 1n;

/**
 * A program whose PSPVault roles are each held by a separate account besides the admin (who
 * holds them all at birth), so every authority can be exercised alone:
 * manager (MANAGER_ROLE), creator (CAMPAIGN_ADMIN_ROLE), issuer (ISSUING_ADMIN_ROLE),
 * settler (SETTLEMENT_ADMIN_ROLE), mover (TRANSFER_ADMIN_ROLE), pauser (PAUSER_ROLE),
 * plus minter, a future delegated minter that holds nothing at all.
 * manager and creator own SP and have approved the vault, so they can fund campaigns.
 */
export async function deployPsp() {
  const p = await deployProgram();
  const signers = await ethers.getSigners();
  const [manager, creator, issuer, settler, mover, pauser, minter] = signers.slice(8, 15);
  await p.psp.grantRole(ROLES.MANAGER, manager);
  await p.psp.grantRole(ROLES.CAMPAIGN_ADMIN, creator);
  await p.psp.grantRole(ROLES.ISSUING_ADMIN, issuer);
  await p.psp.grantRole(ROLES.SETTLEMENT_ADMIN, settler);
  await p.psp.grantRole(ROLES.TRANSFER_ADMIN, mover);
  await p.psp.grantRole(ROLES.PAUSER, pauser);
  for (const funder of [p.admin, manager, creator]) {
    await mintSp(p, funder, USDC(10_000));
    await p.points.connect(funder).approve(p.psp, ethers.MaxUint256);
  }
  return { ...p, manager, creator, issuer, settler, mover, pauser, minter };
}

export type PspProgram = Awaited<ReturnType<typeof deployPsp>>;

/**
 * deployPsp plus CAMPAIGN_A created by `creator` with BUDGET pulled from it, bob on its
 * settlement allowlist and carol on its transfer allowlist; bob is on the Points allowlist.
 */
export async function deployPspWithCampaign() {
  const p = await deployPsp();
  await p.psp.connect(p.creator).createCampaign(CAMPAIGN_A, BUDGET, [p.bob], [p.carol], "A");
  await p.points.addToTransferWhitelist(p.bob);
  return p;
}

/** Sends SP straight to the vault (no campaign): it becomes unallocated. */
export async function sendUnallocated(p: PspProgram, amount: bigint) {
  await p.points.connect(p.admin).transfer(p.psp, amount);
}

export interface CampaignView {
  budget: bigint;
  available: bigint;
  outstanding: bigint;
  status: bigint;
  creator: string;
  metadata: string;
}

/** Asserts every field getCampaign returns. */
export async function expectCampaign(p: PspProgram, id: string, want: CampaignView) {
  const c = await p.psp.getCampaign(id);
  expect({
    budget: c.budget,
    available: c.available,
    outstanding: c.outstanding,
    status: c.status,
    creator: c.creator,
    metadata: c.metadata,
  }).to.deep.equal(want);
}

/** Asserts every field of CAMPAIGN_A, the campaign `creator` made with metadata "A". */
export async function expectCampaignA(p: PspProgram, want: Omit<CampaignView, "creator" | "metadata">) {
  await expectCampaign(p, CAMPAIGN_A, { ...want, creator: p.creator.address, metadata: "A" });
}

/** Asserts the accounting invariant: SP held == sum(available + outstanding) + unallocated. */
export async function expectAccounting(p: PspProgram, ids: string[]) {
  let allocated = 0n;
  for (const id of ids) {
    const c = await p.psp.getCampaign(id);
    allocated += c.available + c.outstanding;
  }
  expect(await p.psp.totalAllocated()).to.equal(allocated);
  expect(await p.points.balanceOf(p.psp)).to.equal(allocated + (await p.psp.unallocated()));
}

/** An account with no role anywhere, for "who may not" tests. */
export type Signer = HardhatEthersSigner;
