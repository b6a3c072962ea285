// Typed linting for promise mistakes only, shared by every TypeScript package's `pnpm lint`: a
// promise nobody awaits or handles, and a promise-returning function handed to a caller that
// ignores its result (event handlers, timers, server callbacks). tsc, dependency-cruiser and
// prettier cover the rest. A package's eslint.config.mjs calls promiseLint with its folder.
import { defineConfig } from "eslint/config";
import tseslint from "typescript-eslint";

/**
 * @param {string} tsconfigRootDir the package's folder (`import.meta.dirname`)
 * @param {string[]} files the sources to lint, relative to it
 */
export function promiseLint(tsconfigRootDir, files = ["src/**/*.ts"]) {
  return defineConfig({
    files,
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir },
    },
    plugins: { "@typescript-eslint": tseslint.plugin },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
    },
  });
}
