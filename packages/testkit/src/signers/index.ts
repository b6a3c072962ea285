/**
 * Stand-ins for where a signing key lives, for the tests of @points/signers' users (the API's
 * executor, the deployer CLI): a real SoftHSM2 token, and local servers that speak AWS KMS's and
 * Google Cloud KMS's wire protocols. A subpath of its own (`@points/testkit/signers`), so a test
 * that needs none of them never loads the PKCS#11 addon.
 */
export * from "./softhsm.js";
export * from "./fakeAwsKms.js";
export * from "./fakeGcpKms.js";
