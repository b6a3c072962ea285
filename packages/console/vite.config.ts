import { defineConfig, loadEnv } from "vite";

// The API serves the built console at /console/; in development Vite serves it and forwards
// every API path to POINTS_API_URL so the session cookie stays same-origin.
const API_PATHS = ["/api", "/v1", "/studio", "/console/v1", "/console/dev"];

export default defineConfig(({ mode }) => {
  const env = loadEnv(mode, process.cwd(), "");
  const target = env.POINTS_API_URL || "http://127.0.0.1:3000";
  return {
    base: "/console/",
    oxc: { jsx: { runtime: "automatic" } },
    server: {
      host: "127.0.0.1",
      port: Number(env.CONSOLE_PORT || 5173),
      proxy: Object.fromEntries(API_PATHS.map((p) => [p, { target, changeOrigin: false }])),
    },
    // Source maps only when asked for (CONSOLE_SOURCEMAP=1): a production build serves none.
    build: { outDir: "dist", emptyOutDir: true, sourcemap: env.CONSOLE_SOURCEMAP === "1", chunkSizeWarningLimit: 1500 },
  };
});
