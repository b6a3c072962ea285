import { Interface, getBytes, toUtf8String, Utf8ErrorFuncs, type InterfaceAbi, type JsonFragment } from "ethers";
import { FastInterface } from "./fastInterface.js";

/**
 * Text read from the chain (campaign metadata, token names and symbols) is written by campaign
 * admins and brands, not by us: it may hold invalid UTF-8 or NUL. Such outputs are read as
 * `bytes` (the ABI encodes both alike) and decoded here without ever throwing: invalid
 * sequences and NUL become U+FFFD, so the text always fits a JSON answer and a PostgreSQL column.
 */
export const chainText = (raw: string | Uint8Array): string =>
  toUtf8String(getBytes(raw), Utf8ErrorFuncs.replace).replace(/\u0000/g, "\uFFFD");

type Param = { type?: string; components?: readonly Param[] };
const asBytes = (p: Param): Param => ({
  ...p,
  type: p.type?.replace(/^string(?=\[|$)/, "bytes"),
  ...(p.components ? { components: p.components.map(asBytes) } : {}),
});

/** The ABI with every function's `string` outputs read as `bytes` (inputs and errors unchanged). */
export function stringOutputsAsBytes(abi: InterfaceAbi): FastInterface {
  const fragments = JSON.parse(new Interface(abi).formatJson()) as JsonFragment[];
  return new FastInterface(
    fragments.map((f) =>
      f.type === "function" && f.outputs ? { ...f, outputs: f.outputs.map((o) => asBytes(o as Param)) } : f,
    ) as JsonFragment[],
  );
}
