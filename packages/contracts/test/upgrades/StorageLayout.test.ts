import { expect } from "chai";
import { deployProgram, ethers, mintSp, networkHelpers, SP, USDC } from "../helpers/programFixture.js";

const { loadFixture } = networkHelpers;
const coder = ethers.AbiCoder.defaultAbiCoder();

/** ERC-7201: keccak256(abi.encode(uint256(keccak256(id)) - 1)) & ~bytes32(uint256(0xff)). */
function erc7201(id: string): bigint {
  const inner = BigInt(ethers.id(id)) - 1n;
  return BigInt(ethers.keccak256(coder.encode(["uint256"], [inner]))) & ~0xffn;
}

/** Slot of `mapping[key]` for a mapping declared at `slot`. */
const mappingSlot = (key: string, slot: bigint) =>
  BigInt(ethers.keccak256(coder.encode(["address", "uint256"], [key, slot])));

const word = async (contract: { getAddress(): Promise<string> }, slot: bigint) =>
  BigInt(await ethers.provider.getStorage(await contract.getAddress(), slot));
const asAddress = (w: bigint) => ethers.getAddress(ethers.toBeHex(w & ((1n << 160n) - 1n), 20));

/** A program with an Oracle where alice minted SP(250) (so supply and balances are non-zero). */
async function layoutFixture() {
  const p = await deployProgram({ withOracle: true });
  await mintSp(p, p.alice, USDC(250));
  return p;
}

// A namespace that moved would silently read zeroes after an upgrade: pin every contract's
// namespace to the ERC-7201 formula by reading known values straight from storage.
describe("Upgrades: ERC-7201 storage namespaces", () => {
  it("erc7201_formula_matchesTheConstantsDocumentedInTheContracts", () => {
    expect(erc7201("points.storage.Points")).to.equal(
      0x2157921a61e607371f000c8e3bfc192e9683b078a1d4006fb9b0ecec35ad6100n,
    );
    expect(erc7201("points.storage.Factory")).to.equal(
      0x88587c5531c3d2cbad88001b7e59f62562cd12b51d9726005bb671101b3bd400n,
    );
    expect(erc7201("points.storage.CollateralVault")).to.equal(
      0x57dd4faeff6ea8f1ba6b6f8cc4878c95ba2999e9160d6080762307b2d3b60800n,
    );
    expect(erc7201("points.storage.PSPVault")).to.equal(
      0x787b24183171dfe6cb90f8d929b3507809e83c584969efb5ec85efeacff93f00n,
    );
    expect(erc7201("points.storage.Oracle")).to.equal(
      0x04184dd67e7c6b44cfd3e02d1e52869e70b547ced1540b492ad9b1983c551600n,
    );
  });

  it("points_keepsHoldersSupplyAndRestriction_atItsNamespace", async () => {
    const p = await loadFixture(layoutFixture);
    const slot = erc7201("points.storage.Points");
    expect(await word(p.points, slot + 1n)).to.equal(SP(250));
    expect(await word(p.points, slot + 1n)).to.equal(await p.points.totalSupply());
    expect(await word(p.points, slot + 2n)).to.equal(1n); // transferRestricted
    // holders[alice]: balance in the low 248 bits, allowlist flag in the top byte.
    const holder = await word(p.points, mappingSlot(p.alice.address, slot));
    expect(holder & ((1n << 248n) - 1n)).to.equal(SP(250));
    expect(holder >> 248n).to.equal(1n);
  });

  it("points_leavesERC20sOwnBalanceAndSupplyStorageUnused", async () => {
    const p = await loadFixture(layoutFixture);
    // ERC20Upgradeable namespace: keccak256(abi.encode(uint256(keccak256("openzeppelin.storage.ERC20")) - 1)) & ~0xff
    const erc20 = erc7201("openzeppelin.storage.ERC20");
    expect(await word(p.points, mappingSlot(p.alice.address, erc20))).to.equal(0n);
    expect(await word(p.points, erc20 + 2n)).to.equal(0n); // _totalSupply
  });

  it("factory_keepsPointsAndOracle_atItsNamespace", async () => {
    const p = await loadFixture(layoutFixture);
    const slot = erc7201("points.storage.Factory");
    expect(asAddress(await word(p.factory, slot))).to.equal(await p.points.getAddress());
    expect(asAddress(await word(p.factory, slot + 1n))).to.equal(await p.oracle!.getAddress());
  });

  it("collateralVault_keepsFactory_atItsNamespace", async () => {
    const p = await loadFixture(layoutFixture);
    const slot = erc7201("points.storage.CollateralVault");
    expect(asAddress(await word(p.vault, slot))).to.equal(await p.factory.getAddress());
    expect(asAddress(await word(p.daiVault, slot))).to.equal(await p.factory.getAddress());
  });

  it("pspVault_keepsPoints_atItsNamespace", async () => {
    const p = await loadFixture(layoutFixture);
    const slot = erc7201("points.storage.PSPVault");
    expect(asAddress(await word(p.psp, slot))).to.equal(await p.points.getAddress());
  });

  it("oracle_keepsFeeds_atItsNamespace", async () => {
    const p = await loadFixture(layoutFixture);
    const slot = erc7201("points.storage.Oracle");
    // feeds[usdc]: word 0 packs feed (20 bytes), heartbeat (4), feedDecimals (1); word 1 the band.
    const base = mappingSlot(await p.usdc.getAddress(), slot);
    const packed = await word(p.oracle!, base);
    expect(asAddress(packed)).to.equal(await p.usdcFeed!.getAddress());
    expect((packed >> 160n) & 0xffffffffn).to.equal(86_400n);
    expect((packed >> 192n) & 0xffn).to.equal(8n);
    const band = await word(p.oracle!, base + 1n);
    expect(band & ((1n << 128n) - 1n)).to.equal(ethers.parseUnits("0.98", 18));
    expect(band >> 128n).to.equal(ethers.parseUnits("1.02", 18));
  });
});
