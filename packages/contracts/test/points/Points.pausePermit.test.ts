import { expect } from "chai";
import { anyValue } from "@nomicfoundation/hardhat-ethers-chai-matchers/withArgs";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/types";
import type { Points } from "../../types/ethers-contracts/index.js";
import { ethers, networkHelpers, ROLES, SP } from "../helpers/programFixture.js";
import { pointsFixture } from "./pointsFixture.js";

const { loadFixture, time } = networkHelpers;

/** EIP-712 types of an ERC-2612 permit. */
const PERMIT_TYPES = {
  Permit: [
    { name: "owner", type: "address" },
    { name: "spender", type: "address" },
    { name: "value", type: "uint256" },
    { name: "nonce", type: "uint256" },
    { name: "deadline", type: "uint256" },
  ],
};

/** Signs an ERC-2612 permit of `owner` for `spender` with ethers' EIP-712 signer. */
async function signPermit(
  points: Points,
  signer: HardhatEthersSigner,
  owner: string,
  spender: string,
  value: bigint,
  deadline: bigint,
) {
  const domain = {
    name: await points.name(),
    version: "1",
    chainId: (await ethers.provider.getNetwork()).chainId,
    verifyingContract: await points.getAddress(),
  };
  const nonce = await points.nonces(owner);
  const sig = await signer.signTypedData(domain, PERMIT_TYPES, { owner, spender, value, nonce, deadline });
  const { v, r, s } = ethers.Signature.from(sig);
  return { v, r, s, domain };
}

/** Alice holds SP(100) and allows bob SP(50); the minter holds SP(10). */
async function funded() {
  const p = await loadFixture(pointsFixture);
  await p.points.connect(p.minter).mint(p.alice, SP(100));
  await p.points.connect(p.minter).mint(p.minter, SP(10));
  await p.points.connect(p.alice).approve(p.bob, SP(50));
  return p;
}

describe("Points: pause and permit", () => {
  describe("pausing Points blocks every balance change and permit", () => {
    async function paused() {
      const p = await funded();
      await p.points.connect(p.admin).pause();
      return p;
    }

    type Funded = Awaited<ReturnType<typeof paused>>;
    const BLOCKED: [string, (p: Funded) => Promise<unknown>][] = [
      ["transfer", (p) => p.points.connect(p.alice).transfer(p.bob, SP(1))],
      ["transferFrom", (p) => p.points.connect(p.bob).transferFrom(p.alice, p.bob, SP(1))],
      ["mint", (p) => p.points.connect(p.minter).mint(p.alice, SP(1))],
      ["burn", (p) => p.points.connect(p.minter).burn(SP(1))],
    ];
    for (const [fn, call] of BLOCKED) {
      it(`${fn}_revertsWith_EnforcedPause_whenPaused`, async () => {
        const p = await paused();
        await expect(call(p)).to.be.revertedWithCustomError(p.points, "EnforcedPause");
      });
    }

    it("permit_revertsWith_EnforcedPause_whenPaused", async () => {
      const p = await paused();
      const deadline = BigInt(await time.latest()) + 3600n;
      const s = await signPermit(p.points, p.alice, p.alice.address, p.carol.address, SP(5), deadline);
      await expect(
        p.points.connect(p.outsider).permit(p.alice, p.carol, SP(5), deadline, s.v, s.r, s.s),
      ).to.be.revertedWithCustomError(p.points, "EnforcedPause");
      expect(await p.points.nonces(p.alice)).to.equal(0n);
    });

    it("pausedPoints_keepEveryBalanceUnchanged", async () => {
      const p = await paused();
      expect(await p.points.balanceOf(p.alice)).to.equal(SP(100));
      expect(await p.points.balanceOf(p.minter)).to.equal(SP(10));
      expect(await p.points.totalSupply()).to.equal(SP(110));
    });

    it("approveAndAllowlistAdmin_stillWork_whilePaused", async () => {
      // Decision (as built): a pause freezes balances, not configuration or plain approvals.
      const p = await paused();
      await expect(p.points.connect(p.alice).approve(p.carol, SP(1)))
        .to.emit(p.points, "Approval")
        .withArgs(p.alice.address, p.carol.address, SP(1));
      await expect(p.points.connect(p.admin).addToTransferWhitelist(p.carol))
        .to.emit(p.points, "TransferWhitelistUpdated")
        .withArgs(p.carol.address, true);
    });

    it("pause_byPauserRole_andUnpause_byAdminOnly_restoreTransfers", async () => {
      const p = await funded();
      await p.points.connect(p.admin).grantRole(ROLES.PAUSER, p.carol);
      await expect(p.points.connect(p.carol).pause()).to.emit(p.points, "Paused").withArgs(p.carol.address);
      await expect(p.points.connect(p.carol).unpause())
        .to.be.revertedWithCustomError(p.points, "AccessControlUnauthorizedAccount")
        .withArgs(p.carol.address, ROLES.DEFAULT_ADMIN);
      await expect(p.points.connect(p.minter).pause())
        .to.be.revertedWithCustomError(p.points, "AccessControlUnauthorizedAccount")
        .withArgs(p.minter.address, ROLES.PAUSER);
      await p.points.connect(p.admin).unpause();
      await p.points.connect(p.alice).transfer(p.bob, SP(1));
      await p.points.connect(p.minter).burn(SP(1));
      expect(await p.points.balanceOf(p.bob)).to.equal(SP(1));
      expect(await p.points.totalSupply()).to.equal(SP(109));
    });
  });

  describe("ERC-2612 permit", () => {
    it("domainSeparator_matchesEthersTypedDataDomain", async () => {
      const p = await funded();
      const s = await signPermit(p.points, p.alice, p.alice.address, p.bob.address, 0n, 0n);
      expect(await p.points.DOMAIN_SEPARATOR()).to.equal(ethers.TypedDataEncoder.hashDomain(s.domain));
    });

    it("permit_setsAllowance_consumesNonce_andLetsSpenderTransfer", async () => {
      const p = await funded();
      const deadline = BigInt(await time.latest()) + 3600n;
      const s = await signPermit(p.points, p.alice, p.alice.address, p.carol.address, SP(7), deadline);
      // Anyone may submit the signed permit.
      await expect(p.points.connect(p.outsider).permit(p.alice, p.carol, SP(7), deadline, s.v, s.r, s.s))
        .to.emit(p.points, "Approval")
        .withArgs(p.alice.address, p.carol.address, SP(7));
      expect(await p.points.allowance(p.alice, p.carol)).to.equal(SP(7));
      expect(await p.points.nonces(p.alice)).to.equal(1n);
      await p.points.connect(p.carol).transferFrom(p.alice, p.bob, SP(7));
      expect(await p.points.balanceOf(p.alice)).to.equal(SP(93));
      expect(await p.points.balanceOf(p.bob)).to.equal(SP(7));
    });

    it("permit_revertsWith_ERC2612ExpiredSignature_afterDeadline", async () => {
      const p = await funded();
      const deadline = BigInt(await time.latest()) + 60n;
      const s = await signPermit(p.points, p.alice, p.alice.address, p.carol.address, SP(7), deadline);
      await time.increaseTo(deadline + 1n);
      await expect(p.points.permit(p.alice, p.carol, SP(7), deadline, s.v, s.r, s.s))
        .to.be.revertedWithCustomError(p.points, "ERC2612ExpiredSignature")
        .withArgs(deadline);
    });

    it("permit_revertsWith_ERC2612InvalidSigner_whenSignedByAnotherAccount", async () => {
      const p = await funded();
      const deadline = BigInt(await time.latest()) + 3600n;
      const s = await signPermit(p.points, p.bob, p.alice.address, p.bob.address, SP(7), deadline);
      await expect(p.points.permit(p.alice, p.bob, SP(7), deadline, s.v, s.r, s.s))
        .to.be.revertedWithCustomError(p.points, "ERC2612InvalidSigner")
        .withArgs(p.bob.address, p.alice.address);
    });

    it("permit_revertsWhen_replayed", async () => {
      const p = await funded();
      const deadline = BigInt(await time.latest()) + 3600n;
      const s = await signPermit(p.points, p.alice, p.alice.address, p.carol.address, SP(7), deadline);
      await p.points.permit(p.alice, p.carol, SP(7), deadline, s.v, s.r, s.s);
      // The nonce moved on, so the same signature recovers to some unrelated address.
      await expect(p.points.permit(p.alice, p.carol, SP(7), deadline, s.v, s.r, s.s))
        .to.be.revertedWithCustomError(p.points, "ERC2612InvalidSigner")
        .withArgs(anyValue, p.alice.address);
    });
  });

  describe("ERC-5267: a wallet signs with the domain the token reports", () => {
    it("permit_signedWithTheEip712DomainReadFromTheToken_setsTheAllowance", async () => {
      const p = await funded();
      const [fields, name, version, chainId, verifyingContract, salt, extensions] = await p.points.eip712Domain();
      // 0x0f: name, version, chainId and verifyingContract are used; salt and extensions are not.
      expect(fields).to.equal("0x0f");
      expect([name, version]).to.deep.equal([await p.points.name(), "1"]);
      expect(chainId).to.equal((await ethers.provider.getNetwork()).chainId);
      expect(verifyingContract).to.equal(await p.points.getAddress());
      expect(salt).to.equal(ethers.ZeroHash);
      expect(extensions).to.deep.equal([]);

      // Build the domain exactly as a wallet does: only the fields the bitmap marks as used.
      const bits = Number(fields);
      const domain: Record<string, unknown> = {};
      if (bits & 0x01) domain.name = name;
      if (bits & 0x02) domain.version = version;
      if (bits & 0x04) domain.chainId = chainId;
      if (bits & 0x08) domain.verifyingContract = verifyingContract;
      if (bits & 0x10) domain.salt = salt;
      expect(ethers.TypedDataEncoder.hashDomain(domain)).to.equal(await p.points.DOMAIN_SEPARATOR());

      const deadline = BigInt(await time.latest()) + 3600n;
      const nonce = await p.points.nonces(p.alice);
      const message = { owner: p.alice.address, spender: p.carol.address, value: SP(9), nonce, deadline };
      const { v, r, s } = ethers.Signature.from(await p.alice.signTypedData(domain, PERMIT_TYPES, message));
      await expect(p.points.connect(p.outsider).permit(p.alice, p.carol, SP(9), deadline, v, r, s))
        .to.emit(p.points, "Approval")
        .withArgs(p.alice.address, p.carol.address, SP(9));
      expect(await p.points.allowance(p.alice, p.carol)).to.equal(SP(9));
      expect(await p.points.nonces(p.alice)).to.equal(nonce + 1n);
    });
  });
});
