import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { Transaction, getAddress, hexlify } from "ethers";
import { unsignedType2Bytes } from "../src/core/chain/type2.js";

const uint = (bits: number) => fc.bigInt({ min: 0n, max: (1n << BigInt(bits)) - 1n });
// Lengths around RLP's boundaries (1 byte, 55/56 bytes, 255/256 bytes, 64 kB) and in between.
const data = fc.oneof(
  fc.uint8Array({ minLength: 0, maxLength: 3 }),
  fc.uint8Array({ minLength: 54, maxLength: 57 }),
  fc.uint8Array({ minLength: 254, maxLength: 258 }),
  fc.uint8Array({ minLength: 65_534, maxLength: 65_537 }),
  fc.uint8Array({ maxLength: 20_000 }),
);

// The bulk routes' transactions are serialized without ethers (src/chain/type2.ts): byte for byte
// what ethers serializes, or a signer would sign something else than the API showed.
describe("chain: unsigned type 2 serialization", () => {
  it("equalsEthersUnsignedSerialized_forAnyFieldsAndCalldataLength", () => {
    fc.assert(
      fc.property(
        fc.record({
          chainId: fc.oneof(fc.constant(1n), fc.constant(31337n), uint(64)),
          nonce: fc.nat({ max: Number.MAX_SAFE_INTEGER }),
          maxPriorityFeePerGas: uint(128),
          extraFee: uint(128),
          gasLimit: fc.oneof(fc.constant(0n), uint(64)),
          to: fc.uint8Array({ minLength: 20, maxLength: 20 }).map((b) => getAddress(hexlify(b))),
          value: fc.oneof(fc.constant(0n), uint(256)),
          data: data.map((b) => hexlify(b)),
        }),
        ({ extraFee, ...r }) => {
          const f = { ...r, maxFeePerGas: r.maxPriorityFeePerGas + extraFee };
          const ethers = Transaction.from({ type: 2, ...f, accessList: [] }).unsignedSerialized;
          assert.equal(hexlify(unsignedType2Bytes(f)), ethers);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("refusesCalldataThatIsNotWholeBytesOfHex", () => {
    const base = { chainId: 1n, nonce: 0, maxPriorityFeePerGas: 1n, maxFeePerGas: 1n, gasLimit: 1n, value: 0n };
    const to = getAddress("0x" + "11".repeat(20));
    for (const bad of ["0x0", "0xzz", "abcd", "0x12 34"]) {
      assert.throws(() => unsignedType2Bytes({ ...base, to, data: bad }), TypeError, bad);
    }
    assert.throws(() => unsignedType2Bytes({ ...base, to, data: "0x", value: -1n }), RangeError);
    // As ethers refuses it: a priority fee above the fee cap.
    assert.throws(() => unsignedType2Bytes({ ...base, to, data: "0x", maxPriorityFeePerGas: 2n }), RangeError);
  });
});
