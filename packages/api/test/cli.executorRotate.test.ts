import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { Wallet, ZeroHash, id, parseEther, type JsonRpcProvider } from "ethers";
import { Factory__factory, ProgramFactory__factory } from "@points/contracts";
import {
  DEV_KEYS,
  actors,
  deployProgram,
  devSafe,
  devWallet,
  execSafeTx,
  freePort,
  startNode,
  type DevNode,
} from "@points/testkit";
import { openDb, type Db } from "../src/core/db/db.js";
import { migrate } from "../src/core/db/migrations.js";
import { ProgramRegistry } from "../src/core/registry/programs.js";
import { ApiKeys } from "../src/core/auth/apiKeys.js";
import { SafeProposals } from "../src/core/safe/proposals.js";
import { ACCESS } from "../src/core/executor/roles.js";
import { cli } from "./helpers/cli.js";
import { createScratchDatabase, type ScratchDatabase } from "./helpers/db.js";

// `points-api executor rotate|retire` against a real node and PostgreSQL: each role change is
// signed by the role's admin on chain, so the old executor's key alone cannot finish a rotation
// where a brand wallet, a Safe or another release admin administers a role.
const EXECUTOR = id("EXECUTOR_ROLE");
const OPERATOR = id("OPERATOR_ROLE");
const MANAGER = id("MANAGER_ROLE");

describe("points-api executor rotate/retire: every role, signed by its admin", () => {
  let node: DevNode;
  let p: JsonRpcProvider;
  let scratch: ScratchDatabase;
  let db: Db;
  let safe: Awaited<ReturnType<typeof devSafe>>;
  let keyId: string;
  const next = Wallet.createRandom();
  const old = devWallet(0).address;
  const brand = devWallet(1).address;
  const releaseAdmin = devWallet(5).address;
  const programs: Record<string, string> = {};
  let pfA: string, pfB: string;
  /** Every role the old executor holds: [contract, role, label]. */
  let slots: [string, string][];

  const env = (key: string, more: Record<string, string> = {}) => ({
    CHAINS: JSON.stringify([{ chainId: 31337, name: "Local", rpcUrl: `http://127.0.0.1:${port}`, testnet: true }]),
    DATABASE_URL: scratch.url,
    EXECUTOR_PRIVATE_KEY: key,
    ...more,
  });
  let port: number;
  const run = (args: string[], key: string, more?: Record<string, string>) =>
    cli("/nonexistent", ["executor", ...args], env(key, more));
  const has = (contract: string, role: string, account: string) =>
    ProgramFactory__factory.connect(contract, p).hasRole(role, account);
  const rolesOf = async (account: string) => Promise.all(slots.map(([c, r]) => has(c, r, account)));
  const grantData = (role: string) => ACCESS.encodeFunctionData("grantRole", [role, next.address]);

  before(async () => {
    port = await freePort();
    [node, scratch] = await Promise.all([startNode({ port }), createScratchDatabase()]);
    p = node.provider;
    db = await openDb({ databaseUrl: scratch.url, dataDir: "/nonexistent" });
    await migrate(db);
    const registry = new ProgramRegistry(db);
    // Release A: the executor administers its ProgramFactory (as the service's own releases).
    const acme = await deployProgram(p, "acme");
    const release = { programFactory: acme.programFactory, usdc: acme.usdc };
    pfA = acme.programFactory;
    const beta = await deployProgram(p, "beta", { release });
    const gamma = await deployProgram(p, "gamma", { release });
    // Release B: another key administers its ProgramFactory; the executor is only its operator.
    const e = devWallet(0, p);
    const [points, factory, collateralVault, pspVault, oracle] = await ProgramFactory__factory.connect(
      pfA,
      p,
    ).implementations();
    const impls = { points, factory, collateralVault, pspVault, oracle };
    const pf = await new ProgramFactory__factory(e).deploy(releaseAdmin, e.address, impls, "b");
    pfB = await pf.getAddress();
    const delta = await deployProgram(p, "delta", { release: { programFactory: pfB, usdc: acme.usdc } });
    for (const d of [acme, beta, gamma, delta]) {
      await registry.insert(d.record);
      programs[d.record.brand] = d.record.factory;
    }
    // gamma's managers are a 2-of-3 Safe only: the brand wallet hands MANAGER_ROLE over.
    safe = await devSafe(p);
    const gf = Factory__factory.connect(gamma.record.factory, actors(p).brand);
    await (await gf.grantRole(MANAGER, safe.address)).wait();
    await (await gf.renounceRole(MANAGER, brand)).wait();
    keyId = (await new ApiKeys(db).create("ops")).info.id;
    slots = [
      [programs.acme!, EXECUTOR],
      [programs.beta!, EXECUTOR],
      [programs.gamma!, EXECUTOR],
      [programs.delta!, EXECUTOR],
      [pfA, OPERATOR],
      [pfA, ZeroHash],
      [pfB, OPERATOR],
    ];
    assert.deepEqual(await rolesOf(old), [true, true, true, true, true, true, true]);
  });
  after(async () => {
    await db?.close();
    await scratch?.drop();
    await node?.stop();
  });

  it("rotate_withAKeyThatAdministersNothing_sendsNothing_exits3_andNamesEachSigner", async () => {
    const block = await p.getBlockNumber();
    const res = await run(["rotate", "--chain", "31337", "--from", old, "--to", next.address], DEV_KEYS[9]!);
    assert.equal(res.code, 3, res.stderr);
    assert.equal(await p.getBlockNumber(), block);
    const lines = res.stdout.trim().split("\n");
    assert.equal(lines[0], `plan: chain 31337, executor ${old} -> ${next.address}`);
    assert.deepEqual(
      lines.filter((l) => l.startsWith("unsigned:")),
      [
        `unsigned: grantRole EXECUTOR_ROLE ${next.address} on Factory acme ${programs.acme}; to=${programs.acme} data=${grantData(EXECUTOR)} value=0, to be signed by ${brand}`,
        `unsigned: grantRole EXECUTOR_ROLE ${next.address} on Factory beta ${programs.beta}; to=${programs.beta} data=${grantData(EXECUTOR)} value=0, to be signed by ${brand}`,
        `unsigned: grantRole EXECUTOR_ROLE ${next.address} on Factory gamma ${programs.gamma}; Safe ${safe.address} (threshold 2) executes to=${programs.gamma} data=${grantData(EXECUTOR)} value=0; pass --proposal-owner to file it as a proposal`,
        `unsigned: grantRole EXECUTOR_ROLE ${next.address} on Factory delta ${programs.delta}; to=${programs.delta} data=${grantData(EXECUTOR)} value=0, to be signed by ${brand}`,
        `unsigned: grantRole OPERATOR_ROLE ${next.address} on ProgramFactory ${pfA}; to=${pfA} data=${grantData(OPERATOR)} value=0, to be signed by ${old}`,
        `unsigned: grantRole DEFAULT_ADMIN_ROLE ${next.address} on ProgramFactory ${pfA}; to=${pfA} data=${grantData(ZeroHash)} value=0, to be signed by ${old}`,
        `unsigned: grantRole OPERATOR_ROLE ${next.address} on ProgramFactory ${pfB}; to=${pfB} data=${grantData(OPERATOR)} value=0, to be signed by ${releaseAdmin}`,
      ],
    );
    assert.equal(lines.at(-1), "waiting: 7 change(s) need another signer (above); run again once they are executed");
    assert.deepEqual(await rolesOf(next.address), [false, false, false, false, false, false, false]);
  });

  let proposalId: string;
  it("rotate_withTheOldKey_sendsWhatItAdministers_proposesToTheSafe_printsTheRest", async () => {
    const res = await run(
      ["rotate", "--chain", "31337", "--to", next.address, "--proposal-owner", keyId],
      DEV_KEYS[0]!,
    );
    assert.equal(res.code, 3, res.stderr);
    const lines = res.stdout.trim().split("\n");
    assert.equal(lines.filter((l) => l.startsWith("sent: ")).length, 2);
    assert.equal(lines.filter((l) => l.startsWith("unsigned: ")).length, 4);
    assert.equal(lines.at(-1), "waiting: 5 change(s) need another signer (above); run again once they are executed");
    // Only release A's roles, which the old executor administers, are in place.
    assert.deepEqual(await rolesOf(next.address), [false, false, false, false, true, true, false]);
    const page = await new SafeProposals(db).list(keyId, { chainId: "31337", safe: safe.address }, { limit: 10 });
    assert.equal(page!.items.length, 1);
    const [proposal] = page!.items;
    proposalId = proposal!.id;
    assert.deepEqual(
      [proposal!.tx.to, proposal!.tx.data, proposal!.tx.nonce, proposal!.tx.operation],
      [programs.gamma, grantData(EXECUTOR), "0", 0],
    );
    assert.ok(
      lines.includes(
        `proposed: grantRole EXECUTOR_ROLE ${next.address} on Factory gamma ${programs.gamma}; proposal ${proposalId} of Safe ${safe.address} (nonce 0, 2 signature(s) needed)`,
      ),
    );
  });

  it("retire_whileAGrantIsMissing_isRefused_exits4_sendsNothing", async () => {
    const block = await p.getBlockNumber();
    const res = await run(["retire", "--chain", "31337", "--old", old], next.privateKey, {
      EXECUTOR_PRIVATE_KEYS: DEV_KEYS[0]!,
    });
    assert.equal(res.code, 4, res.stderr);
    assert.equal(await p.getBlockNumber(), block);
    assert.equal(
      res.stdout,
      [
        `refused: ${next.address} does not hold every role ${old} holds; nothing was sent. Missing:`,
        `  EXECUTOR_ROLE on Factory acme ${programs.acme}`,
        `  EXECUTOR_ROLE on Factory beta ${programs.beta}`,
        `  EXECUTOR_ROLE on Factory gamma ${programs.gamma}`,
        `  EXECUTOR_ROLE on Factory delta ${programs.delta}`,
        `  OPERATOR_ROLE on ProgramFactory ${pfB}`,
        `run \`points-api executor rotate --chain 31337 --to ${next.address}\` and finish its steps`,
        "",
      ].join("\n"),
    );
    assert.deepEqual(await rolesOf(old), [true, true, true, true, true, true, true]);
  });

  it("rotate_withEachAdminsKey_thenTheSafe_grantsEverything_andARerunIsANoOp", async () => {
    const asBrand = await run(
      ["rotate", "--chain", "31337", "--from", old, "--to", next.address, "--proposal-owner", keyId],
      DEV_KEYS[1]!,
    );
    assert.equal(asBrand.code, 3, asBrand.stderr);
    // The open proposal is found, not filed twice.
    assert.ok(
      asBrand.stdout.includes(
        `proposed already: grantRole EXECUTOR_ROLE ${next.address} on Factory gamma ${programs.gamma}; proposal ${proposalId} of Safe ${safe.address} (nonce 0)`,
      ),
    );
    const asAdmin = await run(["rotate", "--chain", "31337", "--from", old, "--to", next.address], DEV_KEYS[5]!);
    assert.equal(asAdmin.code, 3, asAdmin.stderr);
    assert.deepEqual(await rolesOf(next.address), [true, true, false, true, true, true, true]);
    const stored = (await new SafeProposals(db).get(keyId, proposalId))!;
    const tx = { ...stored.tx, value: 0n, safeTxGas: 0n, baseGas: 0n, gasPrice: 0n, nonce: BigInt(stored.tx.nonce) };
    await execSafeTx(devWallet(9, p), safe.address, tx as never, safe.owners.slice(0, 2));
    assert.deepEqual(await rolesOf(next.address), [true, true, true, true, true, true, true]);
    const block = await p.getBlockNumber();
    const again = await run(["rotate", "--chain", "31337", "--to", next.address], DEV_KEYS[0]!);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(await p.getBlockNumber(), block);
    const lines = again.stdout.trim().split("\n");
    assert.equal(lines.filter((l) => l.endsWith(" in place")).length, 7);
    assert.equal(lines.at(-1), "done: 0 change(s) made");
  });

  it("retire_withoutTheOldKey_revokesThroughEachAdmin_theNewKeySendsWhereItIsAdmin_theSafeGetsAProposal", async () => {
    await (await devWallet(0, p).sendTransaction({ to: next.address, value: parseEther("1") })).wait();
    const res = await run(["retire", "--chain", "31337", "--old", old, "--proposal-owner", keyId], next.privateKey);
    assert.equal(res.code, 3, res.stderr);
    // The new executor administers release A's ProgramFactory now: it revokes there, nowhere else.
    assert.deepEqual(await rolesOf(old), [true, true, true, true, false, false, true]);
    const revoke = (role: string) => ACCESS.encodeFunctionData("revokeRole", [role, old]);
    const lines = res.stdout.trim().split("\n");
    assert.deepEqual(
      lines.filter((l) => /^(sent|unsigned|proposed)/.test(l)).map((l) => l.replace(/\(tx 0x[0-9a-f]{64}\)$/, "(tx)")),
      [
        `unsigned: revokeRole EXECUTOR_ROLE ${old} on Factory acme ${programs.acme}; to=${programs.acme} data=${revoke(EXECUTOR)} value=0, to be signed by ${brand}`,
        `unsigned: revokeRole EXECUTOR_ROLE ${old} on Factory beta ${programs.beta}; to=${programs.beta} data=${revoke(EXECUTOR)} value=0, to be signed by ${brand}`,
        `proposed: revokeRole EXECUTOR_ROLE ${old} on Factory gamma ${programs.gamma}; proposal ${(await new SafeProposals(db).list(keyId, { safe: safe.address }, { limit: 1 }))!.items[0]!.id} of Safe ${safe.address} (nonce 1, 2 signature(s) needed)`,
        `unsigned: revokeRole EXECUTOR_ROLE ${old} on Factory delta ${programs.delta}; to=${programs.delta} data=${revoke(EXECUTOR)} value=0, to be signed by ${brand}`,
        `sent: revokeRole OPERATOR_ROLE ${old} on ProgramFactory ${pfA} (tx)`,
        `sent: revokeRole DEFAULT_ADMIN_ROLE ${old} on ProgramFactory ${pfA} (tx)`,
        `unsigned: revokeRole OPERATOR_ROLE ${old} on ProgramFactory ${pfB}; to=${pfB} data=${revoke(OPERATOR)} value=0, to be signed by ${releaseAdmin}`,
      ],
    );
    assert.equal(lines.at(-2), "waiting: 5 change(s) need another signer (above); run again once they are executed");
  });

  it("badArguments_exit2_andNameTheProblem", async () => {
    const notAnAddress = await run(["rotate", "--chain", "31337", "--to", "0x12"], DEV_KEYS[0]!);
    assert.deepEqual([notAnAddress.code, notAnAddress.stderr], [2, "--to: 0x12 is not an address\n"]);
    const unknownChain = await run(["rotate", "--chain", "5", "--to", next.address], DEV_KEYS[0]!);
    assert.deepEqual([unknownChain.code, unknownChain.stderr], [2, "chain 5 is not in CHAINS\n"]);
    const stillConfigured = await run(["retire", "--chain", "31337", "--old", old], DEV_KEYS[0]!);
    assert.deepEqual(
      [stillConfigured.code, stillConfigured.stderr],
      [2, `${old} is still the configured executor key: switch the EXECUTOR settings first\n`],
    );
  });

  it("retire_onceEveryRoleIsHeld_renouncesTheOldRoles_andReportsTheOldBalance", async () => {
    const res = await run(["retire", "--chain", "31337", "--old", old], next.privateKey, {
      EXECUTOR_PRIVATE_KEYS: DEV_KEYS[0]!,
    });
    assert.equal(res.code, 0, res.stderr);
    assert.deepEqual(await rolesOf(old), [false, false, false, false, false, false, false]);
    assert.deepEqual(await rolesOf(next.address), [true, true, true, true, true, true, true]);
    const lines = res.stdout.trim().split("\n");
    // The five the admins have not revoked yet; the old key renounces them itself.
    assert.equal(lines.filter((l) => l.startsWith("sent: renounceRole ")).length, 5);
    assert.equal(lines.at(-2), "done: 5 change(s) made");
    const balance = await p.getBalance(old);
    assert.match(lines.at(-1)!, new RegExp(`^${old} still holds [0-9.]+ native \\(${balance} wei\\) on chain 31337$`));
    // Nothing left to retire: the same command has nothing to do.
    const again = await run(["retire", "--chain", "31337", "--old", old], next.privateKey);
    assert.equal(again.code, 0, again.stderr);
  });
});
