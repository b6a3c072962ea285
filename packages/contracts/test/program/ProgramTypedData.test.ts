import { expect } from "chai";
import { TypedDataEncoder } from "ethers";
import { SAFE_TYPED_DATA_TYPES, deskTypedData, type DeskTypedData } from "../../program/index.js";
import { encodeMultiSend } from "../../program/multiSend.js";

// Values computed with the copies each package kept before this module held them: signatures
// made then must still verify, and batches must still encode to the same bytes.
const FACTORY = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
const hash = (t: DeskTypedData) => TypedDataEncoder.hash(t.domain, t.types, t.message);

describe("program module: typed data and batch encoding, byte for byte", function () {
  it("deskTypedData_policyAndDecision_hashAsBefore", function () {
    const policy = deskTypedData(31337, FACTORY, {
      kind: "policy",
      policy: "manual",
      version: 3,
      signedUntil: 1900000000,
    });
    expect(hash(policy)).to.equal("0xbf2af1e62ae6783e77b1236bcbb0a2b09ac26113cd40177a61da94af1f9aaf63");
    const decision = deskTypedData("31337", FACTORY, {
      kind: "decision",
      requestId: "42",
      decision: "reject",
      reason: "not eligible",
      signedUntil: 1900000600,
    });
    expect(hash(decision)).to.equal("0x69f566725cfc8758b808d42f7a347d92779e564378e6434ea1bf7f7aa0586535");
  });

  it("safeTypedDataTypes_domainThenSafeTx_asWalletsHashThem", function () {
    expect(JSON.stringify(SAFE_TYPED_DATA_TYPES)).to.equal(
      '{"EIP712Domain":[{"name":"chainId","type":"uint256"},{"name":"verifyingContract","type":"address"}],' +
        '"SafeTx":[{"name":"to","type":"address"},{"name":"value","type":"uint256"},{"name":"data","type":"bytes"},' +
        '{"name":"operation","type":"uint8"},{"name":"safeTxGas","type":"uint256"},{"name":"baseGas","type":"uint256"},' +
        '{"name":"gasPrice","type":"uint256"},{"name":"gasToken","type":"address"},' +
        '{"name":"refundReceiver","type":"address"},{"name":"nonce","type":"uint256"}]}',
    );
  });

  it("encodeMultiSend_twoCalls_encodesAsBefore", function () {
    const calls = [
      { to: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", data: "0x8456cb59" },
      {
        to: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
        data: "0xa9059cbb0000000000000000000000000000000000000000000000000000000000000001",
      },
    ];
    expect(encodeMultiSend(calls)).to.equal(
      "0x8d80ff0a" +
        "0000000000000000000000000000000000000000000000000000000000000020" +
        "00000000000000000000000000000000000000000000000000000000000000d2" +
        "0070997970c51812dc3a010c7d01b50e0d17dc79c8" +
        "0000000000000000000000000000000000000000000000000000000000000000" +
        "0000000000000000000000000000000000000000000000000000000000000004" +
        "8456cb59" +
        "003c44cdddb6a900fa2b585dd299e03d12fa4293bc" +
        "0000000000000000000000000000000000000000000000000000000000000000" +
        "0000000000000000000000000000000000000000000000000000000000000024" +
        "a9059cbb0000000000000000000000000000000000000000000000000000000000000001" +
        "0000000000000000000000000000",
    );
  });
});
