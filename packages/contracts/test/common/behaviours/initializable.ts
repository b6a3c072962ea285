import { expect } from "chai";
import { ethers, networkHelpers } from "../../helpers/programFixture.js";
import { programFixture, type Target } from "../targets.js";

const { loadFixture } = networkHelpers;

// ERC-1967: bytes32(uint256(keccak256("eip1967.proxy.implementation")) - 1)
export const IMPLEMENTATION_SLOT = "0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc";

export async function implementationOf(proxy: string): Promise<string> {
  const word = await ethers.provider.getStorage(proxy, IMPLEMENTATION_SLOT);
  return ethers.getAddress(ethers.dataSlice(word, 12));
}

/**
 * docs/rules.md#every-contract: the constructor only disables initializers, so the shared implementation can
 * never be taken over, and a proxy runs `initialize` exactly once.
 */
export function shouldInitializeOnlyOnce(t: Target) {
  describe("initializers", () => {
    it("initialize_revertsWhen_calledOnTheImplementation", async () => {
      const p = await loadFixture(programFixture);
      const impl = await ethers.getContractAt(t.name, await implementationOf(await t.proxy(p).getAddress()));
      await expect(
        impl.connect(p.outsider).getFunction("initialize")(...(await t.initArgs(p))),
      ).to.be.revertedWithCustomError(impl, "InvalidInitialization");
    });

    it("initialize_revertsWhen_proxyAlreadyInitialized", async () => {
      const p = await loadFixture(programFixture);
      const c = t.proxy(p);
      for (const s of [p.admin, p.outsider]) {
        await expect(c.connect(s).getFunction("initialize")(...(await t.initArgs(p)))).to.be.revertedWithCustomError(
          c,
          "InvalidInitialization",
        );
      }
    });

    it("initialize_revertsWhen_adminIsZero", async () => {
      const p = await loadFixture(programFixture);
      const impl = await implementationOf(await t.proxy(p).getAddress());
      const proxy = await ethers.deployContract("ProgramProxy", [impl]);
      const c = await ethers.getContractAt(t.name, await proxy.getAddress());
      const args = await t.initArgs(p);
      // The admin is the first argument (inside the params struct for the Factory).
      const zeroed =
        t.name === "Factory"
          ? [{ ...(args[0] as object), admin: ethers.ZeroAddress }]
          : args.map((a) => (a === p.admin.address ? ethers.ZeroAddress : a));
      await expect(c.getFunction("initialize")(...zeroed))
        .to.be.revertedWithCustomError(c, "AccessControlInvalidDefaultAdmin")
        .withArgs(ethers.ZeroAddress);
    });

    it("initialize_succeedsOnce_onAFreshProxy", async () => {
      const p = await loadFixture(programFixture);
      const impl = await implementationOf(await t.proxy(p).getAddress());
      const proxy = await ethers.deployContract("ProgramProxy", [impl]);
      const c = await ethers.getContractAt(t.name, await proxy.getAddress());
      await expect(c.getFunction("initialize")(...(await t.initArgs(p))))
        .to.emit(c, "Initialized")
        .withArgs(1);
      const base = await ethers.getContractAt("ProgramUpgradeable", await proxy.getAddress());
      expect(await base.defaultAdmin()).to.equal(p.admin.address);
      await expect(c.getFunction("initialize")(...(await t.initArgs(p)))).to.be.revertedWithCustomError(
        c,
        "InvalidInitialization",
      );
    });
  });
}
