import { concat, Interface, Typed, type FunctionFragment, type InterfaceAbi } from "ethers";

/**
 * An ethers Interface that finds a function by name and hashes its selector once. ethers scans
 * every fragment of the ABI for a bare name and hashes the selector (keccak) again on each
 * encode; the API asks for the same few functions on every request and the deployer reads the
 * same few on every verification (docs/architecture.md#cpu-per-request). Overloaded names,
 * signatures, selectors and typed arguments take ethers' own path, so every answer is ethers'.
 */
export class FastInterface extends Interface {
  /** Names with exactly one function in the ABI. */
  readonly #unique = new Map<string, FunctionFragment>();
  readonly #selectors = new Map<FunctionFragment, string>();

  constructor(abi: InterfaceAbi) {
    super(abi);
    const seen = new Map<string, FunctionFragment | null>();
    this.forEachFunction((f) => seen.set(f.name, seen.has(f.name) ? null : f));
    for (const [name, f] of seen) if (f) this.#unique.set(name, f);
  }

  override getFunction(key: string, values?: readonly unknown[]): FunctionFragment | null {
    const f = this.#unique.get(key);
    if (f && (!values || fits(f, values))) return f;
    return super.getFunction(key, values as unknown[] | undefined);
  }

  override getFunctionName(key: string): string {
    return this.#unique.get(key)?.name ?? super.getFunctionName(key);
  }

  /** The function's selector, hashed once per fragment. */
  selectorOf(f: FunctionFragment): string {
    let selector = this.#selectors.get(f);
    if (selector === undefined) {
      selector = f.selector;
      this.#selectors.set(f, selector);
    }
    return selector;
  }

  override encodeFunctionData(fragment: FunctionFragment | string, values?: readonly unknown[]): string {
    const f = typeof fragment === "string" ? this.getFunction(fragment) : fragment;
    // Unknown names and foreign fragments get ethers' own answer (and error).
    if (!f || this.#unique.get(f.name) !== f) return super.encodeFunctionData(fragment, values);
    return concat([this.selectorOf(f), this._encodeParams(f.inputs, values ?? [])]);
  }
}

/**
 * Whether ethers would pick the name's only function for these arguments: untyped values, as
 * many as its inputs, or one more that is an overrides object.
 */
function fits(f: FunctionFragment, values: readonly unknown[]): boolean {
  if (values.some((v) => Typed.isTyped(v))) return false;
  if (values.length === f.inputs.length) return true;
  const last = values.at(-1);
  return values.length === f.inputs.length + 1 && typeof last === "object" && last !== null && !Array.isArray(last);
}
