import { getBytes, hexlify, keccak256, type Provider } from "ethers";
import { isDevChainId } from "@points/contracts/program";
// Named JSON imports: the bundle keeps these two fields, not the artifact's ABI and AST.
import {
  deployedBytecode,
  immutableReferences,
} from "@points/contracts/artifacts/contracts/mocks/MockStablecoin.sol/MockStablecoin.json";

/** Runtime code with its immutables (the token's decimals) zeroed, so any deployment of it compares equal. */
function masked(code: Uint8Array): string {
  const bytes = new Uint8Array(code);
  for (const refs of Object.values(immutableReferences as Record<string, { start: number; length: number }[]>)) {
    for (const { start, length } of refs) bytes.fill(0, start, Math.min(start + length, bytes.length));
  }
  return keccak256(bytes);
}

const MOCK = masked(getBytes(deployedBytecode));

/**
 * Whether `asset` on `chainId` is the project's MockStablecoin on a dev chain: only then does the
 * console offer test collateral (its `mint` is open to anyone, and only there is it harmless).
 * Testnets are not dev chains: their collateral is somebody's real test token.
 */
export async function isDevMockStablecoin(provider: Provider, chainId: string | number, asset: string) {
  if (!isDevChainId(chainId)) return false;
  const code = await provider.getCode(asset);
  return code !== "0x" && masked(getBytes(code)) === MOCK;
}

export const _forTests = { masked: (hex: string) => masked(getBytes(hexlify(hex))) };
