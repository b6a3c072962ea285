/**
 * --signer pkcs11 through the built CLI against a hardhat node: the deployer's key is generated
 * inside a SoftHSM2 token and never leaves it. The release is sent from the token key's address
 * (and makes it the ProgramFactory's admin); a wrong PIN, a missing key, a key of another curve or
 * a missing setting stop the command with a named error before any chain traffic.
 */
import assert from "node:assert/strict";
import { Contract, JsonRpcProvider, ZeroHash } from "ethers";
import { type DevNode, startNode } from "@points/testkit";
import { errorLine, requireBuilt, runCli, tempDir } from "./helpers.js";
import { createSoftHsm, SOFTHSM_MODULE, type SoftHsm } from "@points/testkit/signers";

describe("points-deployer --signer pkcs11 (SoftHSM2, against hardhat node)", function () {
  this.timeout(240_000);
  let node: DevNode;
  let hsm: SoftHsm;
  let provider: JsonRpcProvider;
  let address: string;
  const hsmEnv = (over: Record<string, string> = {}) => ({
    RPC_URL: node.url,
    SOFTHSM2_CONF: hsm.conf,
    DEPLOYER_SIGNER: "pkcs11",
    DEPLOYER_PKCS11_MODULE: SOFTHSM_MODULE!,
    DEPLOYER_PKCS11_TOKEN_LABEL: hsm.tokenLabel,
    DEPLOYER_PKCS11_PIN: hsm.pin,
    DEPLOYER_PKCS11_KEY_LABEL: "deployer",
    ...over,
  });

  before(async () => {
    requireBuilt();
    hsm = createSoftHsm([
      { label: "deployer", curve: "secp256k1" },
      { label: "p256", curve: "p256" },
    ]);
    address = hsm.addresses.deployer!;
    node = await startNode();
    provider = new JsonRpcProvider(node.url, undefined, { staticNetwork: true });
    // The token's key is funded like any deployer address; nothing else knows it.
    await provider.send("hardhat_setBalance", [address, "0x56BC75E2D63100000"]);
  });
  after(async () => {
    provider?.destroy();
    await node?.stop();
    hsm?.remove();
  });

  it("wrongPin_exitsWithSIGNER_LOGIN_FAILED_andSendsNothing", async () => {
    const blockBefore = await provider.getBlockNumber();
    const r = await runCli(
      ["release", "--manifest-dir", tempDir("hsm-pin")],
      hsmEnv({ DEPLOYER_PKCS11_PIN: "11112222" }),
    );
    assert.equal(r.code, 4);
    assert.equal(errorLine(r), "error [SIGNER_LOGIN_FAILED]: PKCS#11 login to the token refused: CKR_PIN_INCORRECT");
    assert.equal(r.stdout, "");
    assert.equal(await provider.getTransactionCount(address), 0);
    assert.equal(await provider.getBlockNumber(), blockBefore);
  });

  it("missingKeyLabel_exitsWithSIGNER_KEY_NOT_FOUND", async () => {
    const r = await runCli(
      ["release", "--manifest-dir", tempDir("hsm-label")],
      hsmEnv({ DEPLOYER_PKCS11_KEY_LABEL: "nobody" }),
    );
    assert.equal(r.code, 4);
    assert.equal(errorLine(r), 'error [SIGNER_KEY_NOT_FOUND]: the token holds no private key labelled "nobody"');
  });

  it("keyOfAnotherCurve_exitsWithSIGNER_KEY_CURVE_andSendsNothing", async () => {
    const blockBefore = await provider.getBlockNumber();
    const r = await runCli(
      ["release", "--manifest-dir", tempDir("hsm-curve")],
      hsmEnv({ DEPLOYER_PKCS11_KEY_LABEL: "p256" }),
    );
    assert.equal(r.code, 4);
    assert.equal(
      errorLine(r),
      'error [SIGNER_KEY_CURVE]: key "p256" is not a secp256k1 key (CKA_EC_PARAMS 06082a8648ce3d030107); Ethereum needs secp256k1',
    );
    assert.equal(r.stdout, "");
    assert.equal(await provider.getBlockNumber(), blockBefore);
  });

  it("missingSettings_exitWithUSAGE_namingEachOne_andNeverThePin", async () => {
    const r = await runCli(["release", "--signer", "pkcs11", "--manifest-dir", tempDir("hsm-usage")], {
      RPC_URL: node.url,
      DEPLOYER_PKCS11_PIN: hsm.pin,
    });
    assert.equal(r.code, 2);
    assert.equal(
      errorLine(r),
      "error [USAGE]: signer settings: DEPLOYER_PKCS11_MODULE is required with --signer pkcs11; DEPLOYER_PKCS11_KEY_LABEL is required with --signer pkcs11; set exactly one of DEPLOYER_PKCS11_TOKEN_LABEL or DEPLOYER_PKCS11_SLOT with --signer pkcs11",
    );
  });

  it("release_isSentFromTheTokenKey_andMakesItTheFactoryAdmin", async () => {
    const r = await runCli(["release", "--manifest-dir", tempDir("hsm-release")], hsmEnv());
    assert.equal(r.code, 0, r.stderr);
    assert.ok(!r.stdout.includes(hsm.pin) && !r.stderr.includes(hsm.pin), "the PIN was printed");
    const sent = r.stdout.match(/^\[release\] tx 0x[0-9a-f]+/gm) ?? [];
    assert.ok(sent.length > 0, `no transaction in:\n${r.stdout}`);
    // Every transaction of the release came from the token's key: its nonce is their count.
    assert.equal(await provider.getTransactionCount(address), sent.length);
    assert.match(r.stdout, new RegExp(`^\\s*deployer: ${address}$`, "m"));
    const factory = /programFactory: (0x[0-9a-fA-F]{40})/.exec(r.stdout)![1]!;
    const roles = new Contract(factory, ["function hasRole(bytes32,address) view returns (bool)"], provider);
    assert.equal(await roles.hasRole(ZeroHash, address), true);
  });
});
