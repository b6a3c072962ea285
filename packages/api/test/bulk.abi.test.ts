import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { Interface, keccak256, toUtf8Bytes } from "ethers";
import { PSPVault__factory } from "@points/contracts";
import { MAX_UINT256 } from "@points/schema";
import { encodeBatchCall } from "../src/core/bulk/abi.js";
import { recipients } from "./helpers/bulk.js";

// The bulk routes' own ABI encoder must equal ethers' for every batch form.
describe("bulk: batch call encoding", () => {
  const vault = new Interface(PSPVault__factory.abi);
  const id = keccak256(toUtf8Bytes("c"));
  const cases = [0, 1, 3, 31, 32, 33, 64, 200].map((n) => ({
    to: recipients(n || 1, `abi${n}`),
    amounts: Array.from({ length: n || 1 }, (_, i) => (i === 0 ? MAX_UINT256 : BigInt(i) * 10n ** 17n + 1n)),
    metadata: n === 0 ? "" : "é, 🎉 ".repeat(n) + `bulk:x:${n}/9`,
  }));
  const sel = (fn: string) => vault.getFunction(fn)!.selector;

  it("mintBatch_settleBatch_expireBatch_matchEthers", () => {
    for (const { to, amounts, metadata } of cases) {
      const receivers = to.map((_, i) => to[(i + 1) % to.length]);
      assert.equal(
        encodeBatchCall(sel("mintBatch"), [
          { type: "bytes32", value: id },
          { type: "address[]", value: to },
          { type: "uint256[]", value: amounts },
          { type: "string", value: metadata },
        ]),
        vault.encodeFunctionData("mintBatch", [id, to, amounts, metadata]),
      );
      assert.equal(
        encodeBatchCall(sel("settleBatch"), [
          { type: "address[]", value: to },
          { type: "address[]", value: receivers },
          { type: "uint256[]", value: amounts },
          { type: "bytes32", value: id },
          { type: "string", value: metadata },
        ]),
        vault.encodeFunctionData("settleBatch", [to, receivers, amounts, id, metadata]),
      );
      assert.equal(
        encodeBatchCall(sel("expireBatch"), [
          { type: "address[]", value: to },
          { type: "uint256[]", value: amounts },
          { type: "bytes32", value: id },
          { type: "string", value: metadata },
        ]),
        vault.encodeFunctionData("expireBatch", [to, amounts, id, metadata]),
      );
    }
  });
});
