import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { Interface } from "ethers";
import type { ContractFunctionName } from "viem";
import { ABIS } from "@points/contracts/program/abi";
import * as abis from "../src/abis.js";

describe("@points/sdk/abis: the program contracts' ABIs for callers who read the contracts themselves", () => {
  it("everyProgramContractsAbi_isExported_equalToTheContractsBuild", () => {
    assert.deepEqual(
      Object.keys(abis).sort(),
      Object.keys(ABIS)
        .map((k) => `${k}Abi`)
        .sort(),
    );
    for (const [key, abi] of Object.entries(ABIS)) assert.deepEqual(abis[`${key}Abi` as keyof typeof abis], abi, key);
  });

  it("theAbis_parseWithEthers_andNameTheSpecsReads", () => {
    const points = new Interface(abis.pointsAbi);
    assert.ok(points.getFunction("balanceOf"));
    assert.ok(new Interface(abis.pspVaultAbi).getFunction("balanceOf(bytes32,address)"));
    // `as const`: viem infers function names from the ABI's type (this line does not compile otherwise).
    const read: ContractFunctionName<typeof abis.pointsAbi, "view"> = "balanceOf";
    assert.equal(read, "balanceOf");
  });
});
