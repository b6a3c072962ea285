import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as main from "../src/index.js";
import * as light from "../src/clientEntry.js";

const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));

// The size of a read-only page rests on this entry (bench/bundle.ts checks the bytes).
describe("the @points/sdk/client entry", () => {
  it("exportsTheClientAndErrorsOnly_theSameFunctionsAsTheMainEntry", () => {
    assert.deepEqual(Object.keys(light).sort(), [
      "PointsApiError",
      "callRoute",
      "createClient",
      "fetchRoute",
      "isPointsError",
    ]);
    for (const [name, value] of Object.entries(light)) assert.equal(value, main[name as keyof typeof main], name);
  });

  it("isPublishedAsTheClientSubpath", () => {
    assert.deepEqual(manifest.exports["./client"], {
      types: "./dist/client.d.ts",
      default: "./dist/clientEntry.js",
    });
  });
});
