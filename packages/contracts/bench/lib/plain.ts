import type { PlainERC20Upgradeable } from "../../types/ethers-contracts/index.js";
import { proxy } from "../../test/helpers/programFixture.js";

/** The floor: OpenZeppelin's plain ERC-20 behind the same UUPS proxy, `supply` minted to `owner`. */
export async function deployPlainErc20(owner: string, supply: bigint) {
  const token = await proxy<PlainERC20Upgradeable>("PlainERC20Upgradeable");
  await token.initialize(owner, supply);
  return token;
}
