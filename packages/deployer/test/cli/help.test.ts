import assert from "node:assert/strict";
import { requireBuilt, runCli } from "./helpers.js";

describe("points-deployer --help", () => {
  before(requireBuilt);

  it("help_listsEverySubcommand", async () => {
    const r = await runCli(["--help"]);
    assert.equal(r.code, 0);
    for (const cmd of ["release", "deploy", "upgrade", "handover", "verify"])
      assert.match(r.stdout, new RegExp(`\\n  ${cmd}\\b`));
  });

  const cases: [string[], RegExp[]][] = [
    [["release"], [/--rpc-url/, /--private-key/, /--manifest-dir/]],
    [
      ["deploy"],
      [
        /--brand/,
        /--token-name/,
        /--token-symbol/,
        /--deployer/,
        /--collateral/,
        /--config/,
        /--oracle-feed/,
        /--mint-fee-bps/,
        /--admin-delay/,
      ],
    ],
    [["upgrade"], [/--brand/, /--contract/, /--implementation/, /--unsigned/]],
    [["handover"], [/begin/, /accept/]],
    [
      ["handover", "begin"],
      [/--brand/, /--new-admin/, /--private-key/],
    ],
    [
      ["handover", "accept"],
      [/--brand/, /--private-key/],
    ],
    [["verify"], [/--brand/, /--rpc-url/]],
  ];
  for (const [cmd, expected] of cases) {
    it(`help_of_${cmd.join("_")}_describesItsOptions`, async () => {
      const r = await runCli([...cmd, "--help"]);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, new RegExp(`^Usage: points-deployer ${cmd.join(" ")}`));
      for (const re of expected) assert.match(r.stdout, re);
    });
  }

  it("verify_takesNoKey", async () => {
    const r = await runCli(["verify", "--help"]);
    assert.doesNotMatch(r.stdout, /--private-key/);
  });

  it("unknownCommand_exitsWithUsageError", async () => {
    const r = await runCli(["deploi"]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /unknown command 'deploi'/);
  });
});
