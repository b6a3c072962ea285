// The backends and the seam every one of them signs through (README.md).
export type { DigestSigner } from "./signer.js";
export { finishSignature } from "./signer.js";
export { SignerError, withinTimeout, type SignerErrorCode } from "./errors.js";
export { ExecutorWallet, type TxSigner } from "./wallet.js";
export { localSigner } from "./local.js";
export {
  openPkcs11,
  pkcs11js,
  SECP256K1_PARAMS,
  type Pkcs11Config,
  type Pkcs11Lib,
  type Pkcs11Token,
} from "./pkcs11.js";
export { openAwsKms, type AwsKmsConfig, type AwsKmsKeys } from "./awsKms.js";
export { openGcpKms, type GcpKmsConfig, type GcpKmsKeys } from "./gcpKms.js";
export { derSignatureToRs, spkiAddress } from "./keyFormats.js";
export { crc32c } from "./crc32c.js";
