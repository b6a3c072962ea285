import { Interface, Transaction, encodeBase64, getAddress, type Provider } from "ethers";
import { prepare, type PreparedTx } from "@points/sdk";
import type { ProgramView } from "../context";

/** The most test collateral one click mints, in whole tokens: enough to try every flow. */
export const TEST_COLLATERAL_CAP = 10_000n;

const token = new Interface(["function mint(address to, uint256 amount)"]);

/**
 * An unsigned `mint(to, amount)` of the dev mock stablecoin for the connected wallet, built in
 * the browser (the API has no route for a test token, and its server never signs or pays): the
 * wallet signs it after the usual review. `amount` is capped at TEST_COLLATERAL_CAP tokens.
 */
export async function testCollateralMint(
  provider: Provider,
  program: ProgramView,
  asset: string,
  decimals: number,
  from: string,
  amount: bigint,
): Promise<PreparedTx> {
  const cap = TEST_COLLATERAL_CAP * 10n ** BigInt(decimals);
  if (amount <= 0n || amount > cap)
    throw new Error(`Test collateral is capped at ${TEST_COLLATERAL_CAP} tokens per mint.`);
  const to = getAddress(asset);
  const sender = getAddress(from);
  const data = token.encodeFunctionData("mint", [sender, amount]);
  const [nonce, gas, fees, network] = await Promise.all([
    provider.getTransactionCount(sender, "pending"),
    provider.estimateGas({ from: sender, to, data }),
    provider.getFeeData(),
    provider.getNetwork(),
  ]);
  if (String(network.chainId) !== program.chainId) throw new Error("Switch the wallet to the program's chain first.");
  const maxPriorityFeePerGas = fees.maxPriorityFeePerGas ?? 0n;
  const maxFeePerGas = fees.maxFeePerGas ?? fees.gasPrice ?? 0n;
  const gasLimit = (gas * 12n) / 10n;
  const tx = Transaction.from({
    type: 2,
    chainId: network.chainId,
    to,
    data,
    value: 0n,
    nonce,
    gasLimit,
    maxFeePerGas,
    maxPriorityFeePerGas,
  });
  return prepare({
    tx: encodeBase64(tx.unsignedSerialized),
    type: 2,
    from: sender,
    to,
    data,
    value: "0",
    chainId: program.chainId,
    nonce,
    gas: gasLimit.toString(),
    maxFeePerGas: maxFeePerGas.toString(),
    maxPriorityFeePerGas: maxPriorityFeePerGas.toString(),
    call: { contract: "asset", function: "mint", args: [sender, amount.toString()] },
    program: { id: program.id, chainId: program.chainId, factory: getAddress(program.factory) },
  } as Parameters<typeof prepare>[0]);
}
