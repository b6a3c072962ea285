import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { assertAnswersAsEthers } from "@points/testkit";
import { FastInterface } from "../src/core/chain/fastInterface.js";
import { INTERFACES } from "../src/core/chain/contracts.js";

// The service encodes every build through these interfaces; FastInterface's own rules
// (overloads, typed arguments, errors) are tested in the deployer, where it lives.
describe("chain: the service's interfaces are FastInterfaces that answer as ethers' Interface", () => {
  it("everyFunctionOfEveryProgramContract_sameFragmentAndCalldata_byNameAndByFragment", () => {
    let checked = 0;
    for (const [name, fast] of Object.entries(INTERFACES)) {
      assert.ok(fast instanceof FastInterface, name);
      checked += assertAnswersAsEthers(fast, name);
    }
    assert.ok(checked > 100, `checked ${checked} functions`);
  });
});
