import type { Core } from "./core.js";
import type { WriteOptions } from "../types.js";

/**
 * The signer and program of an /api/v1 body: those bodies name the signer `key` (part of the
 * interface); the SDK calls it `from` everywhere.
 */
export const keyed = (core: Core, opts: WriteOptions) => ({ key: opts.from, program: opts.program ?? core.program });
