import assert from "node:assert/strict";
import { Interface, ZeroAddress, type FunctionFragment } from "ethers";

/** Arguments of the right types for a fragment (zeros, empty, false). */
export function zeroArgs(f: FunctionFragment): unknown[] {
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

/**
 * Asserts that a faster Interface answers every function of its ABI exactly as ethers' own
 * Interface does: the same fragment by name (or signature when overloaded), with and without
 * arguments, and the same calldata by name and by fragment. Returns how many it checked.
 */
export function assertAnswersAsEthers(fast: Interface, label: string): number {
  const plain = new Interface(fast.fragments);
  let checked = 0;
  fast.forEachFunction((f) => {
    const args = zeroArgs(f);
    const overloaded = plain.fragments.filter((x) => x.type === "function" && (x as FunctionFragment).name === f.name);
    const key = overloaded.length > 1 ? f.format() : f.name;
    const at = `${label}.${key}`;
    assert.equal(fast.getFunction(key)?.format(), plain.getFunction(key)?.format(), at);
    assert.equal(fast.getFunction(key, args)?.format(), plain.getFunction(key, args)?.format(), at);
    assert.equal(fast.encodeFunctionData(key, args), plain.encodeFunctionData(key, args), at);
    assert.equal(fast.encodeFunctionData(f, args), plain.encodeFunctionData(f, args), at);
    checked += 1;
  });
  return checked;
}
