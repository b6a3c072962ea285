import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { Interface, Typed, ZeroAddress, type FunctionFragment } from "ethers";
import { FastInterface } from "../src/core/chain/fastInterface.js";
import { INTERFACES } from "../src/core/chain/contracts.js";

// FastInterface must answer exactly as ethers' Interface does, only faster: the same fragment
// for every name, the same calldata for every function, ethers' own errors otherwise.
const OVERLOADED = [
  "function transfer(address to, uint256 amount) returns (bool)",
  "function transfer(address to, uint256 amount, bytes data) returns (bool)",
  "function name() view returns (string)",
];

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

describe("chain: FastInterface answers as ethers' Interface", () => {
  it("everyFunctionOfEveryProgramContract_sameFragmentAndCalldata_byNameAndByFragment", () => {
    let checked = 0;
    for (const [name, fast] of Object.entries(INTERFACES)) {
      assert.ok(fast instanceof FastInterface, name);
      const plain = new Interface(fast.fragments);
      fast.forEachFunction((f) => {
        const args = zeros(f);
        const key =
          fast.fragments.filter((x) => x.type === "function" && (x as FunctionFragment).name === f.name).length > 1
            ? f.format()
            : f.name;
        assert.equal(fast.getFunction(key)?.format(), plain.getFunction(key)?.format(), `${name}.${key}`);
        assert.equal(fast.getFunction(key, args)?.format(), plain.getFunction(key, args)?.format(), `${name}.${key}`);
        assert.equal(fast.encodeFunctionData(key, args), plain.encodeFunctionData(key, args), `${name}.${key}`);
        assert.equal(fast.encodeFunctionData(f, args), plain.encodeFunctionData(f, args), `${name}.${key}`);
        assert.equal(fast.selectorOf(f), f.selector);
        checked += 1;
      });
    }
    assert.ok(checked > 100, `checked ${checked} functions`);
  });

  it("overloadsTypedArgsAndOverrides_takeEthersPath_sameAnswersAndErrors", () => {
    const fast = new FastInterface(OVERLOADED);
    const plain = new Interface(OVERLOADED);
    const to = ZeroAddress;
    // An overloaded bare name is ambiguous in both.
    assert.throws(() => fast.getFunction("transfer"), /ambiguous function description/);
    assert.throws(() => plain.getFunction("transfer"), /ambiguous function description/);
    // Two arguments pick one in both; three stay ambiguous (the third might be overrides).
    assert.equal(fast.getFunction("transfer", [to, 1n])?.format(), "transfer(address,uint256)");
    assert.equal(plain.getFunction("transfer", [to, 1n])?.format(), "transfer(address,uint256)");
    for (const i of [fast, plain]) assert.throws(() => i.getFunction("transfer", [to, 1n, "0x"]), /ambiguous/);
    assert.equal(
      fast.encodeFunctionData("transfer(address,uint256)", [to, 1n]),
      plain.encodeFunctionData("transfer(address,uint256)", [to, 1n]),
    );
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
