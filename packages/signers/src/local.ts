import { computeAddress, getBytes, SigningKey } from "ethers";
import type { DigestSigner } from "./signer.js";

/** A raw private key held in memory: development, or production only when the operator opts in. */
export function localSigner(privateKey: string): DigestSigner {
  const key = new SigningKey(privateKey);
  return {
    address: computeAddress(key.publicKey),
    describe: "local",
    async signDigest(digest) {
      const sig = key.sign(digest);
      return getBytes(sig.r + sig.s.slice(2));
    },
  };
}
