import { AbiCoder, NonceManager, id, parseUnits, type JsonRpcProvider } from "ethers";
import { Factory__factory, MockStablecoin__factory, PSPVault__factory, Points__factory } from "@points/contracts";
import type { NewProgram } from "../../src/index.js";
import { actors } from "./program.js";

/**
 * An active pSP campaign funded with `budgetSp` SP by the brand wallet (which holds every admin
 * role): the brand buys SP with mock USDC through the Factory, then creates the campaign.
 * Returns the campaign's label and bytes32 id. `metadata` as bytes is written as is, valid
 * UTF-8 or not, as any other client of the contract could.
 */
export async function fundedCampaign(
  provider: JsonRpcProvider,
  program: NewProgram,
  usdc: string,
  label = "launch",
  budgetSp = 1_000n,
  metadata: string | Uint8Array = "",
) {
  const { brand } = actors(provider);
  const signer = Object.assign(new NonceManager(brand), { address: brand.address });
  const send = async (p: Promise<{ wait(): Promise<unknown> }>) => (await p).wait();
  const usdcAmount = parseUnits(budgetSp.toString(), 6);
  const factory = Factory__factory.connect(program.factory, signer);
  const points = Points__factory.connect(program.points, signer);
  const stable = MockStablecoin__factory.connect(usdc, signer);
  const vault = PSPVault__factory.connect(program.pspVault, signer);
  await send(factory.addToMintWhitelist(brand.address));
  await send(points.addToTransferWhitelist(brand.address));
  await send(stable.mint(brand.address, usdcAmount));
  await send(stable.approve(program.factory, usdcAmount));
  await send(factory.mint(usdc, usdcAmount, brand.address));
  const budget = parseUnits(budgetSp.toString(), 18);
  await send(points.approve(program.pspVault, budget));
  const campaignId = id(label);
  if (typeof metadata === "string") await send(vault.createCampaign(campaignId, budget, [], [], metadata));
  else {
    // The ABI encodes `string` and `bytes` alike: the selector is the string signature's.
    const args = AbiCoder.defaultAbiCoder().encode(
      ["bytes32", "uint256", "address[]", "address[]", "bytes"],
      [campaignId, budget, [], [], metadata],
    );
    const selector = vault.interface.getFunction("createCampaign")!.selector;
    await send(signer.sendTransaction({ to: program.pspVault, data: selector + args.slice(2) }));
  }
  return { label, campaignId };
}
