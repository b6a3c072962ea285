import { expect } from "chai";
import type { Interface } from "ethers";
import { ethers, networkHelpers } from "../helpers/programFixture.js";
import { releaseFixture } from "../helpers/releaseFixture.js";
import { programFixture, TARGETS } from "./targets.js";

/** The functions an ERC-165 interface id is computed over (its own, not inherited ones). */
const INTERFACES = {
  IERC165: ["supportsInterface(bytes4)"],
  IAccessControl: [
    "hasRole(bytes32,address)",
    "getRoleAdmin(bytes32)",
    "grantRole(bytes32,address)",
    "revokeRole(bytes32,address)",
    "renounceRole(bytes32,address)",
  ],
  IAccessControlDefaultAdminRules: [
    "defaultAdmin()",
    "pendingDefaultAdmin()",
    "defaultAdminDelay()",
    "pendingDefaultAdminDelay()",
    "beginDefaultAdminTransfer(address)",
    "cancelDefaultAdminTransfer()",
    "acceptDefaultAdminTransfer()",
    "changeDefaultAdminDelay(uint48)",
    "rollbackDefaultAdminDelay()",
    "defaultAdminDelayIncreaseWait()",
  ],
  // Not claimed by any contract: their ids must answer false.
  IERC20: [
    "totalSupply()",
    "balanceOf(address)",
    "transfer(address,uint256)",
    "allowance(address,address)",
    "approve(address,uint256)",
    "transferFrom(address,address,uint256)",
  ],
  IERC4626: [
    "asset()",
    "totalAssets()",
    "convertToShares(uint256)",
    "convertToAssets(uint256)",
    "maxDeposit(address)",
    "previewDeposit(uint256)",
    "deposit(uint256,address)",
    "maxMint(address)",
    "previewMint(uint256)",
    "mint(uint256,address)",
    "maxWithdraw(address)",
    "previewWithdraw(uint256)",
    "withdraw(uint256,address,address)",
    "maxRedeem(address)",
    "previewRedeem(uint256)",
    "redeem(uint256,address,address)",
  ],
} as const;
type Name = keyof typeof INTERFACES;

/** ERC-165: the XOR of the interface's function selectors. */
const interfaceId = (name: Name) =>
  ethers.toBeHex(
    INTERFACES[name].reduce((id, sig) => id ^ BigInt(ethers.id(sig).slice(0, 10)), 0n),
    4,
  );

/** Every function of a claimed interface must exist in the contract's ABI, or the claim lies. */
function expectImplements(iface: Interface, name: Name) {
  for (const sig of INTERFACES[name]) expect(iface.getFunction(sig), `${name}.${sig}`).to.not.equal(null);
}

const PROGRAM_CLAIMS: Name[] = ["IERC165", "IAccessControl", "IAccessControlDefaultAdminRules"];

describe("ERC-165: every interface a contract claims, and nothing else", () => {
  it("interfaceIds_matchTheKnownValues", () => {
    expect(interfaceId("IERC165")).to.equal("0x01ffc9a7");
    expect(interfaceId("IAccessControl")).to.equal("0x7965db0b");
    expect(interfaceId("IERC20")).to.equal("0x36372b07");
  });

  for (const t of TARGETS) {
    it(`${t.name}_supportsIERC165_IAccessControl_andIAccessControlDefaultAdminRules_only`, async () => {
      const p = await networkHelpers.loadFixture(programFixture);
      const c = t.proxy(p) as unknown as { supportsInterface(id: string): Promise<boolean>; interface: Interface };
      for (const name of PROGRAM_CLAIMS) {
        expect(await c.supportsInterface(interfaceId(name)), name).to.equal(true);
        expectImplements(c.interface, name);
      }
      for (const name of ["IERC20", "IERC4626"] as const) {
        expect(await c.supportsInterface(interfaceId(name)), name).to.equal(false);
      }
      expect(await c.supportsInterface("0xffffffff")).to.equal(false);
    });
  }

  it("ProgramFactory_supportsIERC165_andIAccessControl_only", async () => {
    const r = await networkHelpers.loadFixture(releaseFixture);
    for (const name of ["IERC165", "IAccessControl"] as const) {
      expect(await r.pf.supportsInterface(interfaceId(name)), name).to.equal(true);
      expectImplements(r.pf.interface, name);
    }
    for (const name of ["IAccessControlDefaultAdminRules", "IERC20", "IERC4626"] as const) {
      expect(await r.pf.supportsInterface(interfaceId(name)), name).to.equal(false);
    }
    expect(await r.pf.supportsInterface("0xffffffff")).to.equal(false);
  });
});
