// The shared promise rules (../../eslint.config.base.mjs) over src.
import { promiseLint } from "../../eslint.config.base.mjs";

export default promiseLint(import.meta.dirname);
