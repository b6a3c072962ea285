import { createRequire } from "node:module";
import type { HardhatEthers, HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/types";
import type { Contract, InterfaceAbi } from "ethers";

/**
 * The ERC-3643 (T-REX) peer, deployed from the compiled artifacts that the npm package
 * `@tokenysolutions/t-rex` ships (it bundles the `@onchain-id/solidity` Identity and
 * ClaimIssuer artifacts it was built with). Order follows T-REX's own full-suite test fixture:
 * implementations, an implementation authority, the proxies, then one claim topic, one trusted
 * claim issuer, an identity with a valid claim per holder, and the holders' registration.
 */
export const TREX_PACKAGE = "@tokenysolutions/t-rex@4.1.6";

const require = createRequire(import.meta.url);
interface Artifact {
  abi: InterfaceAbi;
  bytecode: string;
}
const artifact = (path: string): Artifact => require(`@tokenysolutions/t-rex/artifacts/${path}.json`) as Artifact;
const trex = (dir: string, name: string) => artifact(`contracts/${dir}/${name}.sol/${name}`);
const oid = (name: string) => artifact(`@onchain-id/solidity/contracts/${name}.sol/${name}`);

const ARTIFACTS = {
  Token: trex("token", "Token"),
  ClaimTopicsRegistry: trex("registry/implementation", "ClaimTopicsRegistry"),
  IdentityRegistry: trex("registry/implementation", "IdentityRegistry"),
  IdentityRegistryStorage: trex("registry/implementation", "IdentityRegistryStorage"),
  TrustedIssuersRegistry: trex("registry/implementation", "TrustedIssuersRegistry"),
  ModularCompliance: trex("compliance/modular", "ModularCompliance"),
  TREXImplementationAuthority: trex("proxy/authority", "TREXImplementationAuthority"),
  TokenProxy: trex("proxy", "TokenProxy"),
  ClaimTopicsRegistryProxy: trex("proxy", "ClaimTopicsRegistryProxy"),
  IdentityRegistryProxy: trex("proxy", "IdentityRegistryProxy"),
  IdentityRegistryStorageProxy: trex("proxy", "IdentityRegistryStorageProxy"),
  TrustedIssuersRegistryProxy: trex("proxy", "TrustedIssuersRegistryProxy"),
  ModularComplianceProxy: trex("proxy", "ModularComplianceProxy"),
  Identity: oid("Identity"),
  ClaimIssuer: oid("ClaimIssuer"),
};
type Name = keyof typeof ARTIFACTS;

// ERC-734 key purposes and types used below.
const CLAIM_PURPOSE = 3;
const ECDSA_KEY = 1;

export interface TrexSuite {
  token: Contract;
  identityRegistry: Contract;
}

/** Deploys a T-REX token (ModularCompliance without modules) and makes `holders` verified investors. */
export async function deployTrex(
  ethers: HardhatEthers,
  deployer: HardhatEthersSigner,
  holders: HardhatEthersSigner[],
): Promise<TrexSuite> {
  const deploy = async (name: Name, from: HardhatEthersSigner, ...args: unknown[]): Promise<Contract> => {
    const { abi, bytecode } = ARTIFACTS[name];
    const c = await new ethers.ContractFactory(abi, bytecode, from).deploy(...args);
    return (await c.waitForDeployment()) as Contract;
  };
  // A proxy answers with the implementation's ABI.
  const as = async (proxy: Contract, name: Name) =>
    new ethers.Contract(await proxy.getAddress(), ARTIFACTS[name].abi, deployer);

  const impl: Record<string, string> = {};
  for (const name of [
    "Token",
    "ClaimTopicsRegistry",
    "IdentityRegistry",
    "IdentityRegistryStorage",
    "TrustedIssuersRegistry",
    "ModularCompliance",
  ] as const) {
    impl[name] = await (await deploy(name, deployer)).getAddress();
  }
  const authority = await deploy("TREXImplementationAuthority", deployer, true, ethers.ZeroAddress, ethers.ZeroAddress);
  await authority.addAndUseTREXVersion(
    { major: 4, minor: 1, patch: 6 },
    {
      tokenImplementation: impl.Token,
      ctrImplementation: impl.ClaimTopicsRegistry,
      irImplementation: impl.IdentityRegistry,
      irsImplementation: impl.IdentityRegistryStorage,
      tirImplementation: impl.TrustedIssuersRegistry,
      mcImplementation: impl.ModularCompliance,
    },
  );

  const ctr = await as(await deploy("ClaimTopicsRegistryProxy", deployer, authority), "ClaimTopicsRegistry");
  const tir = await as(await deploy("TrustedIssuersRegistryProxy", deployer, authority), "TrustedIssuersRegistry");
  const irs = await as(await deploy("IdentityRegistryStorageProxy", deployer, authority), "IdentityRegistryStorage");
  const ir = await as(await deploy("IdentityRegistryProxy", deployer, authority, tir, ctr, irs), "IdentityRegistry");
  const compliance = await as(await deploy("ModularComplianceProxy", deployer, authority), "ModularCompliance");
  const tokenProxy = await deploy(
    "TokenProxy",
    deployer,
    authority,
    ir,
    compliance,
    "Rex",
    "REX",
    18,
    ethers.ZeroAddress,
  );
  const token = await as(tokenProxy, "Token");
  await irs.bindIdentityRegistry(ir);

  // One required claim topic, signed by one trusted issuer's claim key.
  const topic = ethers.id("KYC");
  await ctr.addClaimTopic(topic);
  const claimSigner = ethers.Wallet.createRandom();
  const issuer = await deploy("ClaimIssuer", deployer, deployer.address);
  const keyHash = ethers.keccak256(ethers.AbiCoder.defaultAbiCoder().encode(["address"], [claimSigner.address]));
  await issuer.addKey(keyHash, CLAIM_PURPOSE, ECDSA_KEY);
  await tir.addTrustedIssuer(issuer, [topic]);

  await ir.addAgent(deployer.address);
  for (const holder of holders) {
    // The npm package ships no IdentityProxy artifact: each identity is a standalone Identity.
    const identity = await deploy("Identity", deployer, holder.address, false);
    const data = ethers.hexlify(ethers.toUtf8Bytes("kyc passed"));
    const digest = ethers.keccak256(
      ethers.AbiCoder.defaultAbiCoder().encode(
        ["address", "uint256", "bytes"],
        [await identity.getAddress(), topic, data],
      ),
    );
    const signature = await claimSigner.signMessage(ethers.getBytes(digest));
    await (identity.connect(holder) as Contract).addClaim(topic, 1, issuer, signature, data, "");
    await ir.registerIdentity(holder.address, identity, 250);
  }
  for (const holder of holders) {
    if (!(await ir.isVerified(holder.address))) throw new Error(`holder ${holder.address} is not verified`);
  }

  await token.addAgent(deployer.address);
  await token.unpause();
  return { token, identityRegistry: ir };
}
