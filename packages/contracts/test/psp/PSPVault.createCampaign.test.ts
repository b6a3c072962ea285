import { expect } from "chai";
import { ethers, networkHelpers, ROLES, SP } from "../helpers/programFixture.js";
import {
  BUDGET,
  CAMPAIGN_A,
  CAMPAIGN_B,
  deployPsp,
  deployPspWithCampaign,
  expectAccounting,
  expectCampaign,
  sendUnallocated,
  Status,
} from "./pspFixture.js";

const { loadFixture } = networkHelpers;
const addresses = (n: number) =>
  Array.from({ length: n }, (_, i) => ethers.getAddress(ethers.zeroPadValue(ethers.toBeHex(i + 1), 20)));

describe("PSPVault: createCampaign", () => {
  describe("who may create: MANAGER_ROLE or CAMPAIGN_ADMIN_ROLE, others revert", () => {
    it("createCampaign_succeeds_forCampaignAdminRoleHolder_whoBecomesCreatorAndAdmin", async () => {
      const p = await loadFixture(deployPsp);
      const tx = p.psp.connect(p.creator).createCampaign(CAMPAIGN_A, BUDGET, [p.bob], [p.carol], "launch");
      await expect(tx).to.emit(p.psp, "CampaignCreated").withArgs(CAMPAIGN_A, p.creator, BUDGET, "launch");
      await expect(tx).to.emit(p.psp, "CampaignAdminUpdated").withArgs(CAMPAIGN_A, p.creator, true);
      await expectCampaign(p, CAMPAIGN_A, {
        budget: BUDGET,
        available: BUDGET,
        outstanding: 0n,
        status: Status.Active,
        creator: p.creator.address,
        metadata: "launch",
      });
      expect(await p.psp.isCampaignAdmin(CAMPAIGN_A, p.creator)).to.equal(true);
    });

    it("createCampaign_succeeds_forManagerRoleHolder_alone", async () => {
      const p = await loadFixture(deployPsp);
      expect(await p.psp.hasRole(ROLES.CAMPAIGN_ADMIN, p.manager)).to.equal(false);
      await expect(p.psp.connect(p.manager).createCampaign(CAMPAIGN_A, BUDGET, [], [], "m"))
        .to.emit(p.psp, "CampaignCreated")
        .withArgs(CAMPAIGN_A, p.manager, BUDGET, "m");
      expect((await p.psp.getCampaign(CAMPAIGN_A)).creator).to.equal(p.manager.address);
      expect(await p.psp.isCampaignAdmin(CAMPAIGN_A, p.manager)).to.equal(true);
    });

    it("createCampaign_revertsWhen_callerHoldsNeitherManagerNorCampaignAdminRole", async () => {
      const p = await loadFixture(deployPsp);
      for (const who of [p.outsider, p.issuer, p.settler, p.mover, p.pauser, p.executor]) {
        await expect(p.psp.connect(who).createCampaign(CAMPAIGN_A, 0n, [], [], ""))
          .to.be.revertedWithCustomError(p.psp, "CallerNotAuthorized")
          .withArgs(who, ROLES.CAMPAIGN_ADMIN);
      }
    });

    it("createCampaign_revertsWhen_callerIsOnlyAnAdminOfAnotherCampaign", async () => {
      const p = await loadFixture(deployPspWithCampaign);
      await p.psp.connect(p.creator).setCampaignAdmin(CAMPAIGN_A, p.alice, true);
      await expect(p.psp.connect(p.alice).createCampaign(CAMPAIGN_B, 0n, [], [], ""))
        .to.be.revertedWithCustomError(p.psp, "CallerNotAuthorized")
        .withArgs(p.alice, ROLES.CAMPAIGN_ADMIN);
    });
  });

  describe("a delegated minter cannot create campaigns", () => {
    it("createCampaign_revertsWhen_callerIsOnlyADelegatedMinter", async () => {
      const p = await loadFixture(deployPspWithCampaign);
      await p.psp.connect(p.creator).setMinter(CAMPAIGN_A, p.minter, SP(100), true);
      await expect(p.psp.connect(p.minter).createCampaign(CAMPAIGN_B, 0n, [], [], ""))
        .to.be.revertedWithCustomError(p.psp, "CallerNotAuthorized")
        .withArgs(p.minter, ROLES.CAMPAIGN_ADMIN);
    });
  });

  describe("funding: a MANAGER_ROLE holder draws on unallocated SP first; everyone else pays it all", () => {
    it("createCampaign_byManager_takesWholeBudgetFromUnallocated_whenEnoughIsInTheVault", async () => {
      const p = await loadFixture(deployPsp);
      await sendUnallocated(p, SP(500));
      const before = await p.points.balanceOf(p.manager);
      await expect(p.psp.connect(p.manager).createCampaign(CAMPAIGN_A, SP(300), [], [], ""))
        .to.emit(p.psp, "CampaignFunded")
        .withArgs(CAMPAIGN_A, p.manager, SP(300), SP(300));
      expect(await p.points.balanceOf(p.manager)).to.equal(before);
      expect(await p.points.balanceOf(p.psp)).to.equal(SP(500));
      expect(await p.psp.unallocated()).to.equal(SP(200));
      expect(await p.psp.totalAllocated()).to.equal(SP(300));
      expect(await p.psp.fundingOf(CAMPAIGN_A)).to.deep.equal([p.manager.address, SP(300)]);
      await expectAccounting(p, [CAMPAIGN_A]);
    });

    it("createCampaign_byManager_splitsFunding_betweenUnallocatedAndCaller", async () => {
      const p = await loadFixture(deployPsp);
      await sendUnallocated(p, SP(100));
      const before = await p.points.balanceOf(p.manager);
      await expect(p.psp.connect(p.manager).createCampaign(CAMPAIGN_A, SP(300), [], [], ""))
        .to.emit(p.psp, "CampaignFunded")
        .withArgs(CAMPAIGN_A, p.manager, SP(300), SP(100));
      expect(await p.points.balanceOf(p.manager)).to.equal(before - SP(200));
      expect(await p.points.balanceOf(p.psp)).to.equal(SP(300));
      expect(await p.psp.unallocated()).to.equal(0n);
      expect(await p.psp.fundingOf(CAMPAIGN_A)).to.deep.equal([p.manager.address, SP(100)]);
      await expectAccounting(p, [CAMPAIGN_A]);
    });

    it("createCampaign_byCampaignAdminRoleHolder_pullsWholeBudgetFromCaller_leavingUnallocatedSpAlone", async () => {
      const p = await loadFixture(deployPsp);
      await sendUnallocated(p, SP(500));
      const before = await p.points.balanceOf(p.creator);
      await expect(p.psp.connect(p.creator).createCampaign(CAMPAIGN_A, SP(300), [], [], ""))
        .to.emit(p.psp, "CampaignFunded")
        .withArgs(CAMPAIGN_A, p.creator, SP(300), 0n);
      expect(await p.points.balanceOf(p.creator)).to.equal(before - SP(300));
      expect(await p.psp.unallocated()).to.equal(SP(500));
      expect(await p.psp.fundingOf(CAMPAIGN_A)).to.deep.equal([p.creator.address, 0n]);
      await expectAccounting(p, [CAMPAIGN_A]);
    });

    it("createCampaign_pullsWholeBudgetFromCaller_whenNothingIsUnallocated", async () => {
      const p = await loadFixture(deployPsp);
      const before = await p.points.balanceOf(p.creator);
      await expect(p.psp.connect(p.creator).createCampaign(CAMPAIGN_A, SP(300), [], [], ""))
        .to.emit(p.psp, "CampaignFunded")
        .withArgs(CAMPAIGN_A, p.creator, SP(300), 0n);
      expect(await p.points.balanceOf(p.creator)).to.equal(before - SP(300));
      expect(await p.points.balanceOf(p.psp)).to.equal(SP(300));
      expect(await p.psp.unallocated()).to.equal(0n);
      await expectAccounting(p, [CAMPAIGN_A]);
    });

    it("createCampaign_doesNotReuseAnotherCampaignsBudget_asUnallocated", async () => {
      const p = await loadFixture(deployPspWithCampaign);
      await expect(p.psp.connect(p.manager).createCampaign(CAMPAIGN_B, SP(50), [], [], ""))
        .to.emit(p.psp, "CampaignFunded")
        .withArgs(CAMPAIGN_B, p.manager, SP(50), 0n);
      expect(await p.points.balanceOf(p.psp)).to.equal(BUDGET + SP(50));
      await expectAccounting(p, [CAMPAIGN_A, CAMPAIGN_B]);
    });

    it("createCampaign_withZeroBudget_createsAnUnfundedCampaign_withoutFundedEvent", async () => {
      const p = await loadFixture(deployPsp);
      await expect(p.psp.connect(p.creator).createCampaign(CAMPAIGN_A, 0n, [], [], "")).not.to.emit(
        p.psp,
        "CampaignFunded",
      );
      const c = await p.psp.getCampaign(CAMPAIGN_A);
      expect([c.budget, c.available, c.status]).to.deep.equal([0n, 0n, Status.Active]);
    });

    it("createCampaign_revertsWhen_callerHasNotApprovedTheShortfall", async () => {
      const p = await loadFixture(deployPsp);
      await sendUnallocated(p, SP(100));
      await p.points.connect(p.manager).approve(p.psp, SP(199));
      await expect(p.psp.connect(p.manager).createCampaign(CAMPAIGN_A, SP(300), [], [], ""))
        .to.be.revertedWithCustomError(p.points, "ERC20InsufficientAllowance")
        .withArgs(p.psp, SP(199), SP(200));
    });
  });

  describe("initial allowlists", () => {
    it("createCampaign_setsInitialWhitelists_andEmitsOneEventPerAccount", async () => {
      const p = await loadFixture(deployPsp);
      const tx = p.psp.connect(p.creator).createCampaign(CAMPAIGN_A, 0n, [p.bob, p.alice], [p.carol], "");
      await expect(tx).to.emit(p.psp, "SettlementWhitelistUpdated").withArgs(CAMPAIGN_A, p.bob, true);
      await expect(tx).to.emit(p.psp, "SettlementWhitelistUpdated").withArgs(CAMPAIGN_A, p.alice, true);
      await expect(tx).to.emit(p.psp, "TransferWhitelistUpdated").withArgs(CAMPAIGN_A, p.carol, true);
      expect(await p.psp.isSettlementWhitelisted(CAMPAIGN_A, p.bob)).to.equal(true);
      expect(await p.psp.isSettlementWhitelisted(CAMPAIGN_A, p.alice)).to.equal(true);
      expect(await p.psp.isSettlementWhitelisted(CAMPAIGN_A, p.carol)).to.equal(false);
      expect(await p.psp.isTransferWhitelisted(CAMPAIGN_A, p.carol)).to.equal(true);
      expect(await p.psp.isTransferWhitelisted(CAMPAIGN_A, p.bob)).to.equal(false);
    });

    it("createCampaign_listsADuplicatedAccountOnce_withASingleEvent", async () => {
      const p = await loadFixture(deployPsp);
      const receipt = await (
        await p.psp.connect(p.creator).createCampaign(CAMPAIGN_A, 0n, [p.bob, p.bob], [], "")
      ).wait();
      const events = await p.psp.queryFilter(p.psp.filters.SettlementWhitelistUpdated(), receipt!.blockNumber);
      expect(events.length).to.equal(1);
    });

    it("createCampaign_accepts_256AccountsInAWhitelist", async () => {
      const p = await loadFixture(deployPsp);
      const list = addresses(256);
      await p.psp.connect(p.creator).createCampaign(CAMPAIGN_A, 0n, list, [], "");
      expect(await p.psp.isSettlementWhitelisted(CAMPAIGN_A, list[255])).to.equal(true);
      expect(await p.psp.MAX_INITIAL_ACCOUNTS()).to.equal(256n);
    });

    it("createCampaign_revertsWhen_eitherWhitelistHasMoreThan256Accounts", async () => {
      const p = await loadFixture(deployPsp);
      const list = addresses(257);
      await expect(p.psp.connect(p.creator).createCampaign(CAMPAIGN_A, 0n, list, [], ""))
        .to.be.revertedWithCustomError(p.psp, "TooManyAccounts")
        .withArgs(257, 256);
      await expect(p.psp.connect(p.creator).createCampaign(CAMPAIGN_A, 0n, [], list, ""))
        .to.be.revertedWithCustomError(p.psp, "TooManyAccounts")
        .withArgs(257, 256);
    });

    it("createCampaign_revertsWhen_aWhitelistHoldsTheZeroAddress", async () => {
      const p = await loadFixture(deployPsp);
      await expect(
        p.psp.connect(p.creator).createCampaign(CAMPAIGN_A, 0n, [ethers.ZeroAddress], [], ""),
      ).to.be.revertedWithCustomError(p.psp, "ZeroAddress");
      await expect(
        p.psp.connect(p.creator).createCampaign(CAMPAIGN_A, 0n, [], [ethers.ZeroAddress], ""),
      ).to.be.revertedWithCustomError(p.psp, "ZeroAddress");
    });
  });

  describe("campaign id", () => {
    it("createCampaign_revertsWhen_idIsTaken", async () => {
      const p = await loadFixture(deployPspWithCampaign);
      await expect(p.psp.connect(p.manager).createCampaign(CAMPAIGN_A, 0n, [], [], ""))
        .to.be.revertedWithCustomError(p.psp, "CampaignAlreadyExists")
        .withArgs(CAMPAIGN_A);
    });

    it("createCampaign_revertsWhen_idBelongsToAClosedCampaign", async () => {
      const p = await loadFixture(deployPspWithCampaign);
      await p.psp.connect(p.creator).closeCampaign(CAMPAIGN_A, p.creator);
      await expect(p.psp.connect(p.creator).createCampaign(CAMPAIGN_A, 0n, [], [], ""))
        .to.be.revertedWithCustomError(p.psp, "CampaignAlreadyExists")
        .withArgs(CAMPAIGN_A);
    });

    it("createCampaign_revertsWhen_idIsZero", async () => {
      const p = await loadFixture(deployPsp);
      await expect(
        p.psp.connect(p.creator).createCampaign(ethers.ZeroHash, 0n, [], [], ""),
      ).to.be.revertedWithCustomError(p.psp, "InvalidCampaignId");
    });
  });
});
