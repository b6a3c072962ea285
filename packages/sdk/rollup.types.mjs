// Bundles the SDK's declarations into dist/index.d.ts with the schema's types inlined, so the
// published package needs no @points/schema (docs/deployment.md#publishing-the-sdk).
import { dts } from "rollup-plugin-dts";

export default {
  input: "build/types/index.d.ts",
  output: { file: "dist/index.d.ts", format: "es" },
  // Packages a consumer installs itself (dependencies and peers) stay imports; the rest is inlined.
  external: ["ethers", "zod", /^zod\//],
  plugins: [dts({ respectExternal: true })],
};
