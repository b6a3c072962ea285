// Bundles the SDK's declarations into dist/index.d.ts, dist/client.d.ts, dist/viem.d.ts and dist/abis.d.ts (types the entries share in
// dist/shared.d.ts) with the schema's types inlined, so the published package needs no
// @points/schema (docs/deployment.md#publishing-the-sdk).
import { dts } from "rollup-plugin-dts";

export default {
  input: {
    index: "build/types/index.d.ts",
    client: "build/types/clientEntry.d.ts",
    viem: "build/types/viem.d.ts",
    abis: "build/types/abis.d.ts",
  },
  // Types the entries share go to one chunk, named so the published file list stays stable.
  output: {
    dir: "dist",
    format: "es",
    entryFileNames: "[name].d.ts",
    chunkFileNames: "shared.d.ts",
    // One chunk for every shared type, however the entries overlap.
    manualChunks: (id) => (/build\/types\/(index|clientEntry|viem|abis)\.d\.ts$/.test(id) ? undefined : "shared"),
  },
  // Packages a consumer installs itself (dependencies and peers) stay imports; the rest is inlined.
  external: ["ethers", "zod", /^zod\//],
  plugins: [dts({ respectExternal: true })],
};
