import assert from "node:assert/strict";
import { requireBuilt, runCli } from "./helpers.js";

describe("points-deployer --help", () => {
  before(requireBuilt);

  it("help_listsEverySubcommand", async () => {
    const r = await runCli(["--help"]);
    assert.equal(r.code, 0);
    for (const cmd of ["release", "deploy", "upgrade", "validate", "sync", "import", "handover", "verify"])
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
    [["upgrade"], [/--brand/, /--contract/, /--implementation/, /--unsigned/, /--dry-run/, /--contracts-dir/]],
    [
      ["validate"],
      [/--brand/, /--contract/, /--implementation/, /--at/, /Exit 0\s+when the upgrade is safe, 5 when it is refused/],
    ],
    [["sync"], [/--brand/, /--artifact <contract=Name>/, /Needs no key; sends\s+nothing/]],
    [["import"], [/--brand/, /--chain <id>/, /--program-factory <address>/, /Needs no key; sends\s+nothing/]],
    [["handover"], [/begin/, /accept/, /cancel/, /status/]],
    [
      ["handover", "cancel"],
      [/--brand/, /--unsigned/, /--private-key/],
    ],
    [
      ["handover", "status"],
      [/--brand/, /--json/],
    ],
    [
      ["handover", "begin"],
      [/--brand/, /--new-admin/, /--private-key/],
    ],
    [
      ["handover", "accept"],
      [/--brand/, /--private-key/, /--unsigned/],
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

  for (const cmd of [["verify"], ["validate"], ["sync"], ["import"], ["handover", "status"]]) {
    it(`${cmd.join("_")}_takesNoKey`, async () => {
      const r = await runCli([...cmd, "--help"]);
      assert.equal(r.code, 0, r.stderr);
      assert.doesNotMatch(r.stdout, /--private-key/);
    });
  }

  it("unknownSubcommand_withHelp_exits2_listingTheValidOnes_insteadOfTheParentsHelp", async () => {
    const r = await runCli(["handover", "revoke", "--help"]);
    assert.equal(r.code, 2);
    assert.equal(r.stdout, "");
    assert.equal(r.stderr, "error: unknown command 'revoke' for 'handover' (valid: begin, accept, cancel, status)\n");
  });

  it("unknownCommand_listsTheValidOnes", async () => {
    const r = await runCli(["deploi", "--help"]);
    assert.equal(r.code, 2);
    assert.equal(
      r.stderr,
      "error: unknown command 'deploi' (valid: release, deploy, upgrade, validate, sync, import, handover, verify)\n",
    );
  });

  it("unknownCommand_exitsWithUsageError", async () => {
    const r = await runCli(["deploi"]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /unknown command 'deploi'/);
  });
});
