import assert from "node:assert/strict";
import { Interface, ZeroAddress, type FunctionFragment } from "ethers";
import { COMPILED } from "@points/contracts/program/code";
import { artifactInterface, loadArtifact } from "../src/artifacts.js";
import { FastInterface } from "../src/index.js";

/** Arguments of the right types for a fragment (zeros, empty, false). */
function zeros(f: FunctionFragment): unknown[] {
  const zero = (t: string, components?: readonly { type: string }[] | null): unknown =>
    t.endsWith("]")
      ? []
      : t.startsWith("tuple")
        ? (components ?? []).map((c) => zero(c.type))
        : t === "address"
          ? ZeroAddress
          : t === "bool"
            ? false
            : t === "string"
              ? ""
              : t === "bytes"
                ? "0x"
                : t.startsWith("bytes")
                  ? `0x${"00".repeat(Number(t.slice(5)))}`
                  : 0n;
  return f.inputs.map((p) => zero(p.type, p.components));
}

// The contract reads of a verification go through artifactInterface: its lookups must answer
// exactly as ethers' Interface does for every function of every released contract.
describe("artifactInterface: a FastInterface that answers as ethers' Interface", () => {
  it("everyFunctionOfEveryReleasedContract_sameFragmentAndCalldata_byNameAndByFragment", () => {
    let checked = 0;
    for (const name of Object.keys(COMPILED)) {
      const fast = artifactInterface(loadArtifact(name));
      assert.ok(fast instanceof FastInterface, name);
      assert.equal(artifactInterface(loadArtifact(name)), fast, `${name}: parsed once`);
      const plain = new Interface(loadArtifact(name).abi);
      fast.forEachFunction((f) => {
        const args = zeros(f);
        const overloaded = plain.fragments.filter(
          (x) => x.type === "function" && (x as FunctionFragment).name === f.name,
        );
        const key = overloaded.length > 1 ? f.format() : f.name;
        assert.equal(fast.getFunction(key)?.format(), plain.getFunction(key)?.format(), `${name}.${key}`);
        assert.equal(fast.getFunction(key, args)?.format(), plain.getFunction(key, args)?.format(), `${name}.${key}`);
        assert.equal(fast.encodeFunctionData(key, args), plain.encodeFunctionData(key, args), `${name}.${key}`);
        assert.equal(fast.encodeFunctionData(f, args), plain.encodeFunctionData(f, args), `${name}.${key}`);
        checked += 1;
      });
    }
    assert.ok(checked > 100, `checked ${checked} functions`);
  });
});
