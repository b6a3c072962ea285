import { expect } from "chai";
import { ethers, networkHelpers } from "../helpers/programFixture.js";
import { NAMES, up, upgradesFixture } from "./upgradesFixture.js";

const { loadFixture } = networkHelpers;

/** Runs `fn`, which must throw, and returns the message. */
async function failureOf(fn: () => Promise<unknown>): Promise<string> {
  try {
    await fn();
  } catch (e) {
    return (e as Error).message;
  }
  expect.fail("expected the upgrade tooling to refuse");
}

// The deployer validates every upgrade with OpenZeppelin's tooling before sending it (docs/deployment.md#upgrades):
// these tests pin what that tooling says about our contracts.
describe("Upgrades: safety validation (OpenZeppelin upgrades plugin)", () => {
  for (const name of NAMES) {
    it(`validateImplementation_passes_for${name}`, async () => {
      await up.validateImplementation(await ethers.getContractFactory(name), { kind: "uups" });
    });

    it(`validateUpgrade_accepts_${name}ToItsV2Mock`, async () => {
      await up.validateUpgrade(
        await ethers.getContractFactory(name),
        await ethers.getContractFactory(`${name}V2Mock`),
        { kind: "uups" },
      );
    });
  }

  describe("PointsV2UnsafeMock (reordered ERC-7201 namespace)", () => {
    it("validateUpgrade_refusesIt_namingTheStorageProblem", async () => {
      const message = await failureOf(async () =>
        up.validateUpgrade(
          await ethers.getContractFactory("Points"),
          await ethers.getContractFactory("PointsV2UnsafeMock"),
          { kind: "uups" },
        ),
      );
      expect(message).to.contain("New storage layout is incompatible");
      expect(message).to.match(/Replaced `holders` with `transferRestricted` of incompatible type/);
      expect(message).to.match(/Replaced `transferRestricted` with `holders` of incompatible type/);
    });

    it("validateUpgrade_againstTheDeployedProxy_refusesIt", async () => {
      const f = await loadFixture(upgradesFixture);
      const message = await failureOf(async () =>
        up.validateUpgrade(f.points, await ethers.getContractFactory("PointsV2UnsafeMock"), { kind: "uups" }),
      );
      expect(message).to.contain("New storage layout is incompatible");
      expect(message).to.contain("PointsV2UnsafeMock.sol");
    });

    it("upgradeProxy_refusesIt_andLeavesTheProxyUntouched", async () => {
      const f = await loadFixture(upgradesFixture);
      const proxy = await f.points.getAddress();
      const implBefore = await up.erc1967.getImplementationAddress(proxy);
      const balance = await f.points.balanceOf(f.alice);
      const message = await failureOf(async () =>
        up.upgradeProxy(proxy, await ethers.getContractFactory("PointsV2UnsafeMock", f.admin), { kind: "uups" }),
      );
      expect(message).to.contain("New storage layout is incompatible");
      expect(await up.erc1967.getImplementationAddress(proxy)).to.equal(implBefore);
      expect(await f.points.balanceOf(f.alice)).to.equal(balance);
    });
  });
});
