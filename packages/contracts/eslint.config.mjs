// The shared promise rules (../../eslint.config.base.mjs) over program/, the TypeScript the package ships.
import { promiseLint } from "../../eslint.config.base.mjs";

export default promiseLint(import.meta.dirname, ["program/**/*.ts"]);
