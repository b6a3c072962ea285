/**
 * The release's compiled contracts as the deployer sends and recognises them: each program
 * contract's (and ProgramFactory's, and the mock collateral's) ABI, creation and runtime code,
 * and immutable references, generated from the Hardhat artifacts at build time.
 * A separate entry (`@points/contracts/program/code`) so the API, which only reads and builds
 * calls, never loads the bytecode.
 */
import { CONTRACT_ARTIFACTS } from "./generated/roles.js";
import * as ABIS from "./generated/abis.js";
import * as CODE from "./generated/code.js";

/** One compiled contract: the fields of a Hardhat artifact the deployer uses. */
export interface CompiledContract {
  contractName: string;
  sourceName: string;
  abi: readonly unknown[];
  bytecode: string;
  deployedBytecode: string;
  linkReferences?: Record<string, unknown>;
  immutableReferences?: Record<string, { start: number; length: number }[]>;
  inputSourceName?: string;
}

/** The release's compiled contracts by contract name ("Points", "ProgramFactory", "MockStablecoin", ...). */
export const COMPILED: Readonly<Record<string, CompiledContract>> = Object.fromEntries(
  (Object.keys(CONTRACT_ARTIFACTS) as (keyof typeof CONTRACT_ARTIFACTS)[]).map((key) => [
    CONTRACT_ARTIFACTS[key],
    { ...CODE[key], abi: ABIS[key] } as CompiledContract,
  ]),
);
