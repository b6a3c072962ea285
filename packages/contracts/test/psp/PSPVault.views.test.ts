import { expect } from "chai";
import { ethers, networkHelpers, ROLES, SP, ADMIN_DELAY } from "../helpers/programFixture.js";
import {
  CAMPAIGN_A,
  CAMPAIGN_B,
  deployPsp,
  deployPspWithCampaign,
  expectAccounting,
  expectCampaign,
  expectCampaignA,
  sendUnallocated,
  Status,
  UNKNOWN,
} from "./pspFixture.js";
import type { PSPVault } from "../../types/ethers-contracts/index.js";

const { loadFixture } = networkHelpers;
const CAMPAIGN_C = ethers.id("campaign-C");

describe("PSPVault: initial state and views", () => {
  describe("initialize", () => {
    it("initialize_givesTheAdminEveryVaultRole_andRecordsThePointsToken", async () => {
      const p = await loadFixture(deployPsp);
      for (const r of Object.values(ROLES).filter((r) => r !== ROLES.MINTER && r !== ROLES.EXECUTOR)) {
        expect(await p.psp.hasRole(r, p.admin)).to.equal(true);
      }
      expect(await p.psp.defaultAdmin()).to.equal(p.admin.address);
      expect(await p.psp.defaultAdminDelay()).to.equal(BigInt(ADMIN_DELAY));
      expect(await p.psp.points()).to.equal(await p.points.getAddress());
      expect(await p.psp.unallocated()).to.equal(0n);
      expect(await p.psp.totalAllocated()).to.equal(0n);
      expect(await p.psp.paused()).to.equal(false);
    });

    it("roleConstants_matchTheSpecsRoleNames", async () => {
      const p = await loadFixture(deployPsp);
      expect(await p.psp.MANAGER_ROLE()).to.equal(ROLES.MANAGER);
      expect(await p.psp.CAMPAIGN_ADMIN_ROLE()).to.equal(ROLES.CAMPAIGN_ADMIN);
      expect(await p.psp.ISSUING_ADMIN_ROLE()).to.equal(ROLES.ISSUING_ADMIN);
      expect(await p.psp.SETTLEMENT_ADMIN_ROLE()).to.equal(ROLES.SETTLEMENT_ADMIN);
      expect(await p.psp.TRANSFER_ADMIN_ROLE()).to.equal(ROLES.TRANSFER_ADMIN);
      expect(await p.psp.PAUSER_ROLE()).to.equal(ROLES.PAUSER);
    });

    it("initialize_revertsWhen_calledTwice", async () => {
      const p = await loadFixture(deployPsp);
      await expect(p.psp.initialize(p.admin, ADMIN_DELAY, p.points)).to.be.revertedWithCustomError(
        p.psp,
        "InvalidInitialization",
      );
    });

    it("initialize_revertsWhen_pointsIsZero", async () => {
      const p = await loadFixture(deployPsp);
      const impl = await ethers.deployContract("PSPVault");
      const proxy = await ethers.deployContract("ProgramProxy", [await impl.getAddress()]);
      const fresh = (await ethers.getContractAt("PSPVault", await proxy.getAddress())) as unknown as PSPVault;
      await expect(fresh.initialize(p.admin, ADMIN_DELAY, ethers.ZeroAddress)).to.be.revertedWithCustomError(
        fresh,
        "ZeroAddress",
      );
    });
  });

  describe("views", () => {
    it("getCampaign_revertsWhen_campaignIsUnknown", async () => {
      const p = await loadFixture(deployPspWithCampaign);
      await expect(p.psp.getCampaign(UNKNOWN))
        .to.be.revertedWithCustomError(p.psp, "CampaignNotFound")
        .withArgs(UNKNOWN);
    });

    it("perCampaignViews_returnDefaults_forUnknownCampaignsAndAccounts", async () => {
      const p = await loadFixture(deployPspWithCampaign);
      expect(await p.psp.getMinterConfig(UNKNOWN, p.minter)).to.deep.equal([0n, 0n, false]);
      expect(await p.psp.getMinterConfig(CAMPAIGN_A, p.outsider)).to.deep.equal([0n, 0n, false]);
      expect(await p.psp.balanceOf(UNKNOWN, p.alice)).to.equal(0n);
      expect(await p.psp.isCampaignAdmin(UNKNOWN, p.creator)).to.equal(false);
      expect(await p.psp.isSettlementWhitelisted(UNKNOWN, p.bob)).to.equal(false);
      expect(await p.psp.isTransferWhitelisted(UNKNOWN, p.carol)).to.equal(false);
    });

    it("unallocated_countsSpSentStraightToTheVault", async () => {
      const p = await loadFixture(deployPspWithCampaign);
      await sendUnallocated(p, SP(12));
      expect(await p.psp.unallocated()).to.equal(SP(12));
      expect(await p.psp.totalAllocated()).to.equal(SP(1000));
    });
  });

  describe("accounting invariant: SP held == sum(available + outstanding) + unallocated", () => {
    it("invariant_holdsAfterEveryStep_ofALongScenario", async () => {
      const p = await loadFixture(deployPsp);
      const ids = [CAMPAIGN_A, CAMPAIGN_B, CAMPAIGN_C];
      const existing: string[] = [];
      // Runs one operation, then checks the invariant over every campaign created so far.
      const step = async (op: () => Promise<unknown>, created?: string) => {
        await op();
        if (created) existing.push(created);
        await expectAccounting(p, existing);
      };
      await p.points.addToTransferWhitelist(p.bob);
      await step(() => sendUnallocated(p, SP(300)));
      await step(
        () => p.psp.connect(p.creator).createCampaign(CAMPAIGN_A, SP(1000), [p.bob], [p.carol], "A"),
        CAMPAIGN_A,
      );
      await step(() => p.psp.connect(p.manager).createCampaign(CAMPAIGN_B, SP(500), [p.bob], [], "B"), CAMPAIGN_B);
      await step(() => p.psp.connect(p.creator).mint(CAMPAIGN_A, p.alice, SP(400), ""));
      await step(() => p.psp.connect(p.manager).setMinter(CAMPAIGN_B, p.minter, SP(200), true));
      await step(() => p.psp.connect(p.minter).mint(CAMPAIGN_B, p.bob, SP(150), ""));
      await step(() => p.psp.connect(p.settler).settle(p.alice, p.bob, SP(100), CAMPAIGN_A, ""));
      await step(() => p.psp.connect(p.settler).expire(p.alice, SP(50), CAMPAIGN_A, ""));
      await step(() => p.psp.connect(p.mover).transfer(CAMPAIGN_A, p.alice, p.carol, SP(100)));
      await step(() => p.psp.connect(p.manager).fundCampaign(CAMPAIGN_B, SP(100)));
      await step(() => p.psp.connect(p.manager).pauseCampaign(CAMPAIGN_B));
      await step(() => p.psp.connect(p.settler).settle(p.bob, p.bob, SP(50), CAMPAIGN_B, ""));
      await step(() => p.psp.connect(p.creator).closeCampaign(CAMPAIGN_A, p.creator));
      await step(() => p.psp.connect(p.settler).expire(p.carol, SP(100), CAMPAIGN_A, ""));
      expect(await p.psp.unallocated()).to.equal(SP(100));
      await step(() => sendUnallocated(p, SP(25)));
      await step(() => p.psp.connect(p.creator).createCampaign(CAMPAIGN_C, SP(200), [], [], "C"), CAMPAIGN_C);
      await step(() => p.psp.connect(p.settler).expire(p.bob, SP(100), CAMPAIGN_B, ""));
      await step(() => p.psp.connect(p.manager).closeCampaign(CAMPAIGN_B, p.manager));
      await step(() => p.psp.connect(p.settler).settle(p.alice, p.bob, SP(150), CAMPAIGN_A, ""));
      await step(() => p.psp.connect(p.issuer).mint(CAMPAIGN_C, p.dave, SP(80), ""));

      expect(existing).to.deep.equal(ids);
      await expectCampaignA(p, { budget: SP(1000), available: 0n, outstanding: 0n, status: Status.Closed });
      await expectCampaign(p, CAMPAIGN_B, {
        budget: SP(600),
        available: 0n,
        outstanding: 0n,
        status: Status.Closed,
        creator: p.manager.address,
        metadata: "B",
      });
      await expectCampaign(p, CAMPAIGN_C, {
        budget: SP(200),
        available: SP(120),
        outstanding: SP(80),
        status: Status.Active,
        creator: p.creator.address,
        metadata: "C",
      });
      // The creator paid its campaigns itself; B drew the 300 sent first from the pool, and
      // closing B gave that program money back to the pool: 100 expired + 25 sent + 300.
      expect(await p.points.balanceOf(p.psp)).to.equal(SP(625));
      expect(await p.psp.unallocated()).to.equal(SP(425));
      // bob: 100 + 50 + 150 settled to him.
      expect(await p.points.balanceOf(p.bob)).to.equal(SP(300));
    });
  });
});
