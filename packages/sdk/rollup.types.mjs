// Bundles the SDK's declarations into dist/index.d.ts, dist/viem.d.ts and dist/abis.d.ts (types the entries share in
// dist/shared.d.ts) with the schema's types inlined, so the published package needs no
// @points/schema (docs/deployment.md#publishing-the-sdk).
import { dts } from "rollup-plugin-dts";

export default {
  input: { index: "build/types/index.d.ts", viem: "build/types/viem.d.ts", abis: "build/types/abis.d.ts" },
  // Types both entries share go to one chunk, named so the published file list stays stable.
  output: { dir: "dist", format: "es", entryFileNames: "[name].d.ts", chunkFileNames: "shared.d.ts" },
  // Packages a consumer installs itself (dependencies and peers) stay imports; the rest is inlined.
  external: ["ethers", "zod", /^zod\//],
  plugins: [dts({ respectExternal: true })],
};
