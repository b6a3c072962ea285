import { expect } from "chai";
import { ethers, networkHelpers, ROLES, SP } from "../helpers/programFixture.js";
import {
  BUDGET,
  CAMPAIGN_A,
  deployPspWithCampaign,
  expectAccounting,
  expectCampaignA,
  Status,
  UNKNOWN,
} from "./pspFixture.js";

const { loadFixture } = networkHelpers;

/**
 * CAMPAIGN_A (creator, BUDGET) with `minter` a delegated minter limited to 300 SP, and alice and
 * carol each holding 100 pSP (issued by the manager).
 */
async function batchFixture() {
  const p = await deployPspWithCampaign();
  await p.psp.connect(p.creator).setMinter(CAMPAIGN_A, p.minter, SP(300), true);
  await p.psp.connect(p.manager).mintBatch(CAMPAIGN_A, [p.alice, p.carol], [SP(100), SP(100)], "seed");
  return p;
}

type P = Awaited<ReturnType<typeof batchFixture>>;

/** Every balance and campaign figure a batch can move, to prove a refused batch moved nothing. */
async function snapshot(p: P) {
  const c = await p.psp.getCampaign(CAMPAIGN_A);
  return {
    alice: await p.psp.balanceOf(CAMPAIGN_A, p.alice),
    carol: await p.psp.balanceOf(CAMPAIGN_A, p.carol),
    dave: await p.psp.balanceOf(CAMPAIGN_A, p.dave),
    bobSp: await p.points.balanceOf(p.bob),
    vaultSp: await p.points.balanceOf(p.psp),
    available: c.available,
    outstanding: c.outstanding,
    minter: await p.psp.getMinterConfig(CAMPAIGN_A, p.minter),
  };
}

describe("PSPVault: batch forms (mintBatch, settleBatch, expireBatch)", () => {
  describe("mintBatch: the authority of mint, checked against the batch total", () => {
    for (const who of ["manager", "issuer", "creator"] as const) {
      it(`mintBatch_by_${who}_issuesEveryRow_andEmitsOnePSPMintedPerRow`, async () => {
        const p = await loadFixture(batchFixture);
        const tx = p.psp
          .connect(p[who])
          .mintBatch(CAMPAIGN_A, [p.alice, p.dave, p.alice], [SP(1), SP(2), SP(3)], "drop");
        await expect(tx).to.emit(p.psp, "PSPMinted").withArgs(CAMPAIGN_A, p[who], p.alice, SP(1), "drop");
        await expect(tx).to.emit(p.psp, "PSPMinted").withArgs(CAMPAIGN_A, p[who], p.dave, SP(2), "drop");
        await expect(tx).to.emit(p.psp, "PSPMinted").withArgs(CAMPAIGN_A, p[who], p.alice, SP(3), "drop");
        const logs = (await (await tx).wait())!.logs;
        expect(logs.length).to.equal(3);
        expect(await p.psp.balanceOf(CAMPAIGN_A, p.alice)).to.equal(SP(104));
        expect(await p.psp.balanceOf(CAMPAIGN_A, p.dave)).to.equal(SP(2));
        await expectCampaignA(p, { budget: BUDGET, available: SP(794), outstanding: SP(206), status: Status.Active });
        await expectAccounting(p, [CAMPAIGN_A]);
      });
    }

    for (const metadata of ["", "x".repeat(31), "y".repeat(32), "order batch 2026-11-24 / promo: é ✓ ".repeat(3)]) {
      it(`mintBatch_andMint_emitTheMetadataUnchanged_whenItIs${Buffer.byteLength(metadata)}Bytes`, async () => {
        const p = await loadFixture(batchFixture);
        const batch = p.psp.connect(p.manager).mintBatch(CAMPAIGN_A, [p.alice, p.dave], [1n, 2n], metadata);
        await expect(batch).to.emit(p.psp, "PSPMinted").withArgs(CAMPAIGN_A, p.manager, p.alice, 1n, metadata);
        await expect(batch).to.emit(p.psp, "PSPMinted").withArgs(CAMPAIGN_A, p.manager, p.dave, 2n, metadata);
        // The log data is the canonical ABI encoding, zero padding included.
        const logs = (await (await batch).wait())!.logs;
        expect(logs.map((l) => l.data)).to.deep.equal(
          [1n, 2n].map((a) => ethers.AbiCoder.defaultAbiCoder().encode(["uint256", "string"], [a, metadata])),
        );
        await expect(p.psp.connect(p.manager).mint(CAMPAIGN_A, p.dave, 3n, metadata))
          .to.emit(p.psp, "PSPMinted")
          .withArgs(CAMPAIGN_A, p.manager, p.dave, 3n, metadata);
      });
    }

    it("mintBatch_byDelegatedMinter_mayIssueExactlyItsLimit_acrossTheBatch", async () => {
      const p = await loadFixture(batchFixture);
      await p.psp.connect(p.minter).mintBatch(CAMPAIGN_A, [p.alice, p.dave], [SP(100), SP(200)], "");
      expect(await p.psp.getMinterConfig(CAMPAIGN_A, p.minter)).to.deep.equal([SP(300), SP(300), true]);
      expect(await p.psp.balanceOf(CAMPAIGN_A, p.dave)).to.equal(SP(200));
    });

    it("mintBatch_revertsWhen_minterLimitExceededByBatchTotal", async () => {
      const p = await loadFixture(batchFixture);
      await p.psp.connect(p.minter).mint(CAMPAIGN_A, p.alice, SP(50), "");
      const before = await snapshot(p);
      // Each row fits the limit alone; their total (250 + 1 wei over the 250 left) does not.
      await expect(p.psp.connect(p.minter).mintBatch(CAMPAIGN_A, [p.alice, p.dave], [SP(125), SP(125) + 1n], ""))
        .to.be.revertedWithCustomError(p.psp, "MinterLimitExceeded")
        .withArgs(CAMPAIGN_A, p.minter, SP(300), SP(50), SP(250) + 1n);
      expect(await snapshot(p)).to.deep.equal(before);
    });

    it("mintBatch_revertsWhen_callerHasNoIssuingAuthority", async () => {
      const p = await loadFixture(batchFixture);
      await expect(p.psp.connect(p.outsider).mintBatch(CAMPAIGN_A, [p.alice], [1n], ""))
        .to.be.revertedWithCustomError(p.psp, "MinterNotAuthorized")
        .withArgs(CAMPAIGN_A, p.outsider);
      await p.psp.connect(p.creator).setMinter(CAMPAIGN_A, p.minter, SP(300), false);
      await expect(p.psp.connect(p.minter).mintBatch(CAMPAIGN_A, [p.alice], [1n], ""))
        .to.be.revertedWithCustomError(p.psp, "MinterNotAuthorized")
        .withArgs(CAMPAIGN_A, p.minter);
    });

    it("mintBatch_mayIssueTheWholeAvailableBudget_butNotOneWeiMore", async () => {
      const p = await loadFixture(batchFixture);
      const available = SP(800);
      await expect(p.psp.connect(p.manager).mintBatch(CAMPAIGN_A, [p.alice, p.dave], [SP(400), SP(400) + 1n], ""))
        .to.be.revertedWithCustomError(p.psp, "InsufficientBudget")
        .withArgs(CAMPAIGN_A, available, available + 1n);
      await p.psp.connect(p.manager).mintBatch(CAMPAIGN_A, [p.alice, p.dave], [SP(400), SP(400)], "");
      await expectCampaignA(p, { budget: BUDGET, available: 0n, outstanding: BUDGET, status: Status.Active });
    });

    it("mintBatch_revertsWhen_oneRowIsBad_andChangesNothing", async () => {
      const p = await loadFixture(batchFixture);
      const before = await snapshot(p);
      await expect(
        p.psp.connect(p.manager).mintBatch(CAMPAIGN_A, [p.alice, ethers.ZeroAddress, p.dave], [1n, 1n, 1n], ""),
      ).to.be.revertedWithCustomError(p.psp, "ZeroAddress");
      await expect(
        p.psp.connect(p.manager).mintBatch(CAMPAIGN_A, [p.alice, p.dave, p.carol], [1n, 1n, 0n], ""),
      ).to.be.revertedWithCustomError(p.psp, "ZeroAmount");
      expect(await snapshot(p)).to.deep.equal(before);
    });

    it("mintBatch_revertsWhen_campaignPausedClosedOrUnknown", async () => {
      const p = await loadFixture(batchFixture);
      await expect(p.psp.connect(p.manager).mintBatch(UNKNOWN, [p.alice], [1n], ""))
        .to.be.revertedWithCustomError(p.psp, "CampaignNotFound")
        .withArgs(UNKNOWN);
      await p.psp.connect(p.creator).pauseCampaign(CAMPAIGN_A);
      await expect(p.psp.connect(p.manager).mintBatch(CAMPAIGN_A, [p.alice], [1n], ""))
        .to.be.revertedWithCustomError(p.psp, "CampaignNotActive")
        .withArgs(CAMPAIGN_A, Status.Paused);
      await p.psp.connect(p.creator).closeCampaign(CAMPAIGN_A, p.creator);
      await expect(p.psp.connect(p.manager).mintBatch(CAMPAIGN_A, [p.alice], [1n], ""))
        .to.be.revertedWithCustomError(p.psp, "CampaignNotActive")
        .withArgs(CAMPAIGN_A, Status.Closed);
    });

    it("mintBatch_revertsWhen_arraysDifferInLength_orAreEmpty", async () => {
      const p = await loadFixture(batchFixture);
      await expect(p.psp.connect(p.manager).mintBatch(CAMPAIGN_A, [p.alice, p.dave], [1n], ""))
        .to.be.revertedWithCustomError(p.psp, "BatchLengthMismatch")
        .withArgs(2n, 1n);
      await expect(p.psp.connect(p.manager).mintBatch(CAMPAIGN_A, [], [], "")).to.be.revertedWithCustomError(
        p.psp,
        "EmptyBatch",
      );
    });
  });

  describe("settleBatch: the rules of settle, every receiver allowlisted", () => {
    for (const who of ["manager", "settler"] as const) {
      it(`settleBatch_by_${who}_burnsEveryRow_andSendsSpToEachReceiver`, async () => {
        const p = await loadFixture(batchFixture);
        const tx = p.psp
          .connect(p[who])
          .settleBatch(
            [p.alice, p.carol, p.alice],
            [p.bob, p.bob, p.bob],
            [SP(10), SP(20), SP(30)],
            CAMPAIGN_A,
            "paid",
          );
        await expect(tx).to.emit(p.psp, "PSPSettled").withArgs(CAMPAIGN_A, p.alice, p.bob, SP(10), "paid");
        await expect(tx).to.emit(p.psp, "PSPSettled").withArgs(CAMPAIGN_A, p.carol, p.bob, SP(20), "paid");
        await expect(tx).to.emit(p.psp, "PSPSettled").withArgs(CAMPAIGN_A, p.alice, p.bob, SP(30), "paid");
        expect(await p.psp.balanceOf(CAMPAIGN_A, p.alice)).to.equal(SP(60));
        expect(await p.psp.balanceOf(CAMPAIGN_A, p.carol)).to.equal(SP(80));
        expect(await p.points.balanceOf(p.bob)).to.equal(SP(60));
        await expectCampaignA(p, { budget: BUDGET, available: SP(800), outstanding: SP(140), status: Status.Active });
        await expectAccounting(p, [CAMPAIGN_A]);
      });
    }

    it("settleBatch_mixingDistinctAndRepeatedReceivers_emitsEveryRow_andPaysEachReceiverItsRowsSum", async () => {
      const p = await loadFixture(batchFixture);
      await p.psp.connect(p.creator).updateSettlementWhitelist(CAMPAIGN_A, p.dave, true);
      await p.points.addToTransferWhitelist(p.dave);
      const vaultBefore = await p.points.balanceOf(p.psp);
      const tx = p.psp
        .connect(p.settler)
        .settleBatch(
          [p.alice, p.carol, p.alice, p.carol],
          [p.bob, p.dave, p.bob, p.bob],
          [SP(10), SP(20), SP(30), SP(5)],
          CAMPAIGN_A,
          "mixed",
        );
      await expect(tx).to.emit(p.psp, "PSPSettled").withArgs(CAMPAIGN_A, p.alice, p.bob, SP(10), "mixed");
      await expect(tx).to.emit(p.psp, "PSPSettled").withArgs(CAMPAIGN_A, p.carol, p.dave, SP(20), "mixed");
      await expect(tx).to.emit(p.psp, "PSPSettled").withArgs(CAMPAIGN_A, p.alice, p.bob, SP(30), "mixed");
      await expect(tx).to.emit(p.psp, "PSPSettled").withArgs(CAMPAIGN_A, p.carol, p.bob, SP(5), "mixed");
      // One SP transfer per distinct receiver, in the order each first appears.
      await expect(tx).to.emit(p.points, "Transfer").withArgs(p.psp, p.bob, SP(45));
      await expect(tx).to.emit(p.points, "Transfer").withArgs(p.psp, p.dave, SP(20));
      expect(await p.points.balanceOf(p.bob)).to.equal(SP(45));
      expect(await p.points.balanceOf(p.dave)).to.equal(SP(20));
      expect(await p.points.balanceOf(p.psp)).to.equal(vaultBefore - SP(65));
      expect(await p.psp.balanceOf(CAMPAIGN_A, p.alice)).to.equal(SP(60));
      expect(await p.psp.balanceOf(CAMPAIGN_A, p.carol)).to.equal(SP(75));
      await expectAccounting(p, [CAMPAIGN_A]);
      // The sums owed live in transient storage: a second batch in a later call starts from zero.
      await p.psp.connect(p.settler).settleBatch([p.alice], [p.bob], [SP(1)], CAMPAIGN_A, "mixed");
      expect(await p.points.balanceOf(p.bob)).to.equal(SP(46));
    });

    it("settleBatch_revertsWhen_oneReceiverIsNotWhitelisted_andChangesNothing", async () => {
      const p = await loadFixture(batchFixture);
      const before = await snapshot(p);
      await expect(
        p.psp.connect(p.settler).settleBatch([p.alice, p.carol], [p.bob, p.dave], [SP(1), SP(1)], CAMPAIGN_A, ""),
      )
        .to.be.revertedWithCustomError(p.psp, "SettlementReceiverNotWhitelisted")
        .withArgs(CAMPAIGN_A, p.dave);
      expect(await snapshot(p)).to.deep.equal(before);
    });

    it("settleBatch_revertsWhen_aRowExceedsItsHoldersBalance_countingEarlierRows", async () => {
      const p = await loadFixture(batchFixture);
      await expect(
        p.psp.connect(p.settler).settleBatch([p.alice, p.alice], [p.bob, p.bob], [SP(60), SP(41)], CAMPAIGN_A, ""),
      )
        .to.be.revertedWithCustomError(p.psp, "InsufficientPSPBalance")
        .withArgs(CAMPAIGN_A, p.alice, SP(40), SP(41));
    });

    it("settleBatch_revertsWhen_callerLacksSettlementRole", async () => {
      const p = await loadFixture(batchFixture);
      await expect(p.psp.connect(p.issuer).settleBatch([p.alice], [p.bob], [1n], CAMPAIGN_A, ""))
        .to.be.revertedWithCustomError(p.psp, "CallerNotAuthorized")
        .withArgs(p.issuer, ROLES.SETTLEMENT_ADMIN);
    });

    it("settleBatch_revertsWhen_arraysDifferInLength_orAreEmpty_orCampaignUnknown", async () => {
      const p = await loadFixture(batchFixture);
      await expect(p.psp.connect(p.settler).settleBatch([p.alice], [p.bob, p.bob], [1n], CAMPAIGN_A, ""))
        .to.be.revertedWithCustomError(p.psp, "BatchLengthMismatch")
        .withArgs(1n, 2n);
      await expect(p.psp.connect(p.settler).settleBatch([p.alice, p.carol], [p.bob, p.bob], [1n], CAMPAIGN_A, ""))
        .to.be.revertedWithCustomError(p.psp, "BatchLengthMismatch")
        .withArgs(2n, 1n);
      await expect(p.psp.connect(p.settler).settleBatch([], [], [], CAMPAIGN_A, "")).to.be.revertedWithCustomError(
        p.psp,
        "EmptyBatch",
      );
      await expect(p.psp.connect(p.settler).settleBatch([p.alice], [p.bob], [1n], UNKNOWN, ""))
        .to.be.revertedWithCustomError(p.psp, "CampaignNotFound")
        .withArgs(UNKNOWN);
    });

    it("settleBatch_worksOnAClosedCampaign", async () => {
      const p = await loadFixture(batchFixture);
      await p.psp.connect(p.creator).closeCampaign(CAMPAIGN_A, p.creator);
      await p.psp
        .connect(p.settler)
        .settleBatch([p.alice, p.carol], [p.bob, p.bob], [SP(100), SP(100)], CAMPAIGN_A, "");
      expect(await p.points.balanceOf(p.bob)).to.equal(SP(200));
      await expectCampaignA(p, { budget: BUDGET, available: 0n, outstanding: 0n, status: Status.Closed });
      await expectAccounting(p, [CAMPAIGN_A]);
    });
  });

  describe("expireBatch: the rules of expire", () => {
    it("expireBatch_bySettlementAdmin_returnsEveryRowToTheAvailableBudget", async () => {
      const p = await loadFixture(batchFixture);
      const tx = p.psp.connect(p.settler).expireBatch([p.alice, p.carol], [SP(100), SP(1)], CAMPAIGN_A, "cycle");
      await expect(tx).to.emit(p.psp, "PSPExpired").withArgs(CAMPAIGN_A, p.alice, SP(100), "cycle");
      await expect(tx).to.emit(p.psp, "PSPExpired").withArgs(CAMPAIGN_A, p.carol, SP(1), "cycle");
      expect(await p.psp.balanceOf(CAMPAIGN_A, p.alice)).to.equal(0n);
      expect(await p.psp.balanceOf(CAMPAIGN_A, p.carol)).to.equal(SP(99));
      await expectCampaignA(p, { budget: BUDGET, available: SP(901), outstanding: SP(99), status: Status.Active });
      await expectAccounting(p, [CAMPAIGN_A]);
    });

    it("expireBatch_onAClosedCampaign_makesTheSpUnallocated", async () => {
      const p = await loadFixture(batchFixture);
      await p.psp.connect(p.creator).closeCampaign(CAMPAIGN_A, p.creator);
      await p.psp.connect(p.manager).expireBatch([p.alice, p.carol], [SP(100), SP(100)], CAMPAIGN_A, "");
      expect(await p.psp.unallocated()).to.equal(SP(200));
      await expectCampaignA(p, { budget: BUDGET, available: 0n, outstanding: 0n, status: Status.Closed });
      await expectAccounting(p, [CAMPAIGN_A]);
    });

    it("expireBatch_revertsWhen_oneRowIsBad_andChangesNothing", async () => {
      const p = await loadFixture(batchFixture);
      const before = await snapshot(p);
      await expect(p.psp.connect(p.settler).expireBatch([p.alice, p.dave], [SP(1), SP(1)], CAMPAIGN_A, ""))
        .to.be.revertedWithCustomError(p.psp, "InsufficientPSPBalance")
        .withArgs(CAMPAIGN_A, p.dave, 0n, SP(1));
      await expect(
        p.psp.connect(p.settler).expireBatch([p.alice, p.carol], [SP(1), 0n], CAMPAIGN_A, ""),
      ).to.be.revertedWithCustomError(p.psp, "ZeroAmount");
      expect(await snapshot(p)).to.deep.equal(before);
    });

    it("expireBatch_revertsWhen_callerLacksSettlementRole_orArraysAreBad", async () => {
      const p = await loadFixture(batchFixture);
      await expect(p.psp.connect(p.creator).expireBatch([p.alice], [1n], CAMPAIGN_A, ""))
        .to.be.revertedWithCustomError(p.psp, "CallerNotAuthorized")
        .withArgs(p.creator, ROLES.SETTLEMENT_ADMIN);
      await expect(p.psp.connect(p.settler).expireBatch([p.alice], [1n, 1n], CAMPAIGN_A, ""))
        .to.be.revertedWithCustomError(p.psp, "BatchLengthMismatch")
        .withArgs(1n, 2n);
      await expect(p.psp.connect(p.settler).expireBatch([], [], CAMPAIGN_A, "")).to.be.revertedWithCustomError(
        p.psp,
        "EmptyBatch",
      );
    });
  });

  describe("pause", () => {
    it("everyBatchForm_revertsWhen_vaultPaused", async () => {
      const p = await loadFixture(batchFixture);
      await p.psp.connect(p.pauser).pause();
      await expect(p.psp.connect(p.manager).mintBatch(CAMPAIGN_A, [p.alice], [1n], "")).to.be.revertedWithCustomError(
        p.psp,
        "EnforcedPause",
      );
      await expect(
        p.psp.connect(p.manager).settleBatch([p.alice], [p.bob], [1n], CAMPAIGN_A, ""),
      ).to.be.revertedWithCustomError(p.psp, "EnforcedPause");
      await expect(p.psp.connect(p.manager).expireBatch([p.alice], [1n], CAMPAIGN_A, "")).to.be.revertedWithCustomError(
        p.psp,
        "EnforcedPause",
      );
    });
  });
});
