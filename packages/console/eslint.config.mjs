// The shared promise rules (../../eslint.config.base.mjs) over src, components included.
import { promiseLint } from "../../eslint.config.base.mjs";

export default promiseLint(import.meta.dirname, ["src/**/*.{ts,tsx}"]);
