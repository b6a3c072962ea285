import { expect } from "chai";
import { AbiCoder, concat, keccak256, toUtf8Bytes } from "ethers";
import {
  ETHERS_SAFE_TX_TYPES,
  ETHERS_SAFE_TYPED_DATA_TYPES,
  SAFE_ABI,
  safeTxDomain,
  safeTxFields,
  safeTxHash,
  type SafeTxFields,
} from "../../program/safe.js";
import { SAFE_TYPED_DATA_TYPES } from "../../program/index.js";

// Hashes and calldata computed with the copies the API (packages/api/src/core/chain/safe.ts) and
// the deployer (packages/deployer/src/safeTx.ts) kept before this module held them: owners'
// signatures made then must still verify against the same safeTxHash.
const SAFE = "0xe7f1725e7734ce288f8367e1bb143e90bb3f0512";
const ZERO = "0x0000000000000000000000000000000000000000";

/** The Safe contract's own getTransactionHash (Safe 1.3/1.4), written out from its Solidity. */
function contractHash(chainId: bigint, safe: string, t: SafeTxFields): string {
  const abi = AbiCoder.defaultAbiCoder();
  const domainTypeHash = keccak256(toUtf8Bytes("EIP712Domain(uint256 chainId,address verifyingContract)"));
  const safeTxTypeHash = keccak256(
    toUtf8Bytes(
      "SafeTx(address to,uint256 value,bytes data,uint8 operation,uint256 safeTxGas,uint256 baseGas," +
        "uint256 gasPrice,address gasToken,address refundReceiver,uint256 nonce)",
    ),
  );
  const domainSeparator = keccak256(abi.encode(["bytes32", "uint256", "address"], [domainTypeHash, chainId, safe]));
  const structHash = keccak256(
    abi.encode(
      [
        "bytes32",
        "address",
        "uint256",
        "bytes32",
        "uint8",
        "uint256",
        "uint256",
        "uint256",
        "address",
        "address",
        "uint256",
      ],
      [
        safeTxTypeHash,
        t.to,
        t.value,
        keccak256(t.data),
        t.operation,
        t.safeTxGas,
        t.baseGas,
        t.gasPrice,
        t.gasToken,
        t.refundReceiver,
        t.nonce,
      ],
    ),
  );
  return keccak256(concat(["0x1901", domainSeparator, structHash]));
}

describe("program module: the Safe transaction, byte for byte", function () {
  it("safeTxFields_plainCall_fillsNoRefundInTheStructsOrder", function () {
    const tx = safeTxFields({ to: "0x70997970c51812dc3a010c7d01b50e0d17dc79c8", data: "0x8456cb59", value: 5n }, 7n);
    expect(JSON.stringify(tx)).to.equal(
      '{"to":"0x70997970C51812dc3A010C7d01b50e0d17dc79C8","value":"5","data":"0x8456cb59","operation":0,' +
        '"safeTxGas":"0","baseGas":"0","gasPrice":"0","gasToken":"' +
        ZERO +
        '","refundReceiver":"' +
        ZERO +
        '","nonce":"7"}',
    );
  });

  it("safeTxFields_batch_isADelegatecallOfValueZero", function () {
    const tx = safeTxFields({ to: "0x9641d764fc13c8B624c04430C7356C1C7C8102e2", data: "0x8d80ff0a", operation: 1 }, 0n);
    expect(tx).to.deep.equal({
      to: "0x9641d764fc13c8B624c04430C7356C1C7C8102e2",
      value: "0",
      data: "0x8d80ff0a",
      operation: 1,
      safeTxGas: "0",
      baseGas: "0",
      gasPrice: "0",
      gasToken: ZERO,
      refundReceiver: ZERO,
      nonce: "0",
    });
  });

  it("safeTxDomain_decimalChainIdAndChecksummedSafe", function () {
    expect(JSON.stringify(safeTxDomain(31337n, SAFE))).to.equal(
      '{"chainId":"31337","verifyingContract":"0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512"}',
    );
    expect(safeTxDomain("1", SAFE)).to.deep.equal(safeTxDomain(1n, SAFE));
  });

  it("safeTxHash_hashesAsBefore_andAsTheSafeContractDoes", function () {
    const plain = safeTxFields({ to: "0x70997970c51812dc3a010c7d01b50e0d17dc79c8", data: "0x8456cb59", value: 5n }, 7n);
    expect(safeTxHash(31337n, SAFE, plain)).to.equal(
      "0x42ae7731e7a6dd411e32a6b1bbc3288fc6912112feb64d4e5079eeec2a6113bf",
    );
    expect(safeTxHash("31337", SAFE, plain)).to.equal(contractHash(31337n, SAFE, plain));
    const batch = safeTxFields(
      { to: "0x9641d764fc13c8B624c04430C7356C1C7C8102e2", data: "0x8d80ff0a", operation: 1 },
      0n,
    );
    expect(safeTxHash(1n, SAFE, batch)).to.equal("0x8478e7a9660eaad13022d3383b7933176f419be778dffd0a82d5543c44e7166b");
    expect(safeTxHash(1n, SAFE, batch)).to.equal(contractHash(1n, SAFE, batch));
  });

  it("ethersTypes_areTheProgramsSafeTypes", function () {
    expect(ETHERS_SAFE_TYPED_DATA_TYPES).to.deep.equal(SAFE_TYPED_DATA_TYPES);
    expect(ETHERS_SAFE_TX_TYPES).to.deep.equal({ SafeTx: SAFE_TYPED_DATA_TYPES.SafeTx });
  });

  it("safeAbi_selectorsAndExecTransactionCalldata_asBefore", function () {
    const selectors = [
      "VERSION",
      "getThreshold",
      "getOwners",
      "nonce",
      "getTransactionHash",
      "simulateAndRevert",
      "execTransaction",
    ].map((f) => SAFE_ABI.getFunction(f)!.selector);
    expect(selectors).to.deep.equal([
      "0xffa1ad74",
      "0xe75235b8",
      "0xa0e67e2b",
      "0xaffed0e0",
      "0xd8d11f78",
      "0xb4faba09",
      "0x6a761202",
    ]);
    const t = safeTxFields({ to: "0x70997970c51812dc3a010c7d01b50e0d17dc79c8", data: "0x8456cb59", value: 5n }, 7n);
    const data = SAFE_ABI.encodeFunctionData("execTransaction", [
      ...[t.to, t.value, t.data, t.operation, t.safeTxGas, t.baseGas, t.gasPrice, t.gasToken, t.refundReceiver],
      "0x" + "11".repeat(65),
    ]);
    expect(data).to.equal(
      "0x6a761202" +
        "00000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c8" +
        "0000000000000000000000000000000000000000000000000000000000000005" +
        "0000000000000000000000000000000000000000000000000000000000000140" +
        "0000000000000000000000000000000000000000000000000000000000000000".repeat(6) +
        "0000000000000000000000000000000000000000000000000000000000000180" +
        "0000000000000000000000000000000000000000000000000000000000000004" +
        "8456cb5900000000000000000000000000000000000000000000000000000000" +
        "0000000000000000000000000000000000000000000000000000000000000041" +
        "11".repeat(65) +
        "00".repeat(31),
    );
  });
});
