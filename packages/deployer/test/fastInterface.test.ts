import assert from "node:assert/strict";
import { Interface, Typed, ZeroAddress } from "ethers";
import { COMPILED } from "@points/contracts/program/code";
import { assertAnswersAsEthers } from "@points/testkit";
import { artifactInterface, loadArtifact } from "../src/artifacts.js";
import { FastInterface } from "../src/index.js";

const OVERLOADED = [
  "function transfer(address to, uint256 amount) returns (bool)",
  "function transfer(address to, uint256 amount, bytes data) returns (bool)",
  "function name() view returns (string)",
];

// FastInterface must answer exactly as ethers' Interface does, only faster: the same fragment
// for every name, the same calldata for every function, ethers' own errors otherwise. The
// contract reads of a verification go through artifactInterface.
describe("FastInterface: answers as ethers' Interface", () => {
  it("everyFunctionOfEveryReleasedContract_sameFragmentAndCalldata_byNameAndByFragment", () => {
    let checked = 0;
    for (const name of Object.keys(COMPILED)) {
      const fast = artifactInterface(loadArtifact(name));
      assert.ok(fast instanceof FastInterface, name);
      assert.equal(artifactInterface(loadArtifact(name)), fast, `${name}: parsed once`);
      fast.forEachFunction((f) => assert.equal(fast.selectorOf(f), f.selector, `${name}.${f.format()}`));
      checked += assertAnswersAsEthers(fast, name);
    }
    assert.ok(checked > 100, `checked ${checked} functions`);
  });

  it("overloadsTypedArgsAndOverrides_takeEthersPath_sameAnswersAndErrors", () => {
    const fast = new FastInterface(OVERLOADED);
    const plain = new Interface(OVERLOADED);
    const to = ZeroAddress;
    assert.equal(assertAnswersAsEthers(fast, "overloaded"), 3);
    // An overloaded bare name is ambiguous in both.
    assert.throws(() => fast.getFunction("transfer"), /ambiguous function description/);
    assert.throws(() => plain.getFunction("transfer"), /ambiguous function description/);
    // Two arguments pick one in both; three stay ambiguous (the third might be overrides).
    assert.equal(fast.getFunction("transfer", [to, 1n])?.format(), "transfer(address,uint256)");
    assert.equal(plain.getFunction("transfer", [to, 1n])?.format(), "transfer(address,uint256)");
    for (const i of [fast, plain]) assert.throws(() => i.getFunction("transfer", [to, 1n, "0x"]), /ambiguous/);
    // A unique name: with an overrides object, a wrong count, a typed value that does not fit.
    assert.equal(fast.getFunction("name", [{ blockTag: 1 }])?.format(), "name()");
    assert.equal(fast.getFunction("name", [1n]), plain.getFunction("name", [1n]));
    assert.equal(fast.getFunction("name", [1n]), null);
    assert.equal(fast.getFunction("name", [Typed.uint256(1n)]), plain.getFunction("name", [Typed.uint256(1n)]));
    // Unknown names: ethers' error.
    assert.throws(() => fast.encodeFunctionData("nope", []), /unknown function/);
    assert.equal(fast.getFunction("nope"), null);
    assert.equal(fast.getFunctionName("name"), "name");
    assert.throws(() => fast.getFunctionName("nope"), /no matching function/);
  });
});
