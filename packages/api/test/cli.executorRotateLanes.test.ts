import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { Wallet, ZeroHash, id, type JsonRpcProvider } from "ethers";
import { ProgramFactory__factory } from "@points/contracts";
import {
  DEV_KEYS,
  deployProgram,
  devSafe,
  devWallet,
  execSafeTx,
  freePort,
  safeTx,
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

// `points-api executor rotate|retire` of a lane key (EXECUTOR_PRIVATE_KEYS): a lane holds
// OPERATOR_ROLE on the ProgramFactories it deploys through, nothing else. Release A's
// ProgramFactory is administered by the executor key, release B's by a Safe.
const EXECUTOR = id("EXECUTOR_ROLE");
const OPERATOR = id("OPERATOR_ROLE");

describe("points-api executor rotate/retire of a lane key: its OPERATOR_ROLEs only, the other lanes untouched", () => {
  let node: DevNode;
  let p: JsonRpcProvider;
  let scratch: ScratchDatabase;
  let db: Db;
  let port: number;
  let safe: Awaited<ReturnType<typeof devSafe>>;
  let keyId: string;
  const executor = devWallet(0).address;
  const brand = devWallet(1).address;
  const lane1 = devWallet(2);
  const lane2 = devWallet(3);
  const next = Wallet.createRandom();
  let pfA: string, pfB: string;
  let acme: string, delta: string;
  /** Every role an executor or lane key may hold here: [contract, role]. */
  let slots: [string, string][];

  const env = (lanes: string[]) => ({
    CHAINS: JSON.stringify([{ chainId: 31337, name: "Local", rpcUrl: `http://127.0.0.1:${port}`, testnet: true }]),
    DATABASE_URL: scratch.url,
    EXECUTOR_PRIVATE_KEY: DEV_KEYS[0]!,
    EXECUTOR_PRIVATE_KEYS: lanes.join(","),
  });
  /** The settings before the rotation: the executor key, lanes 1 and 2. */
  const oldLanes = () => [lane1.privateKey, lane2.privateKey];
  /** The settings after it: lane 1's key replaced by the new one. */
  const newLanes = () => [next.privateKey, lane2.privateKey];
  const run = (args: string[], lanes: string[]) => cli("/nonexistent", ["executor", ...args], env(lanes));
  const has = (contract: string, role: string, account: string) =>
    ProgramFactory__factory.connect(contract, p).hasRole(role, account);
  const rolesOf = async (account: string) => Promise.all(slots.map(([c, r]) => has(c, r, account)));
  const grant = (role: string, account: string) => ACCESS.encodeFunctionData("grantRole", [role, account]);
  const noTx = (out: string) => out.replace(/\(tx 0x[0-9a-f]{64}\)/g, "(tx)");

  before(async () => {
    port = await freePort();
    [node, scratch] = await Promise.all([startNode({ port }), createScratchDatabase()]);
    p = node.provider;
    db = await openDb({ databaseUrl: scratch.url, dataDir: "/nonexistent" });
    await migrate(db);
    const e = devWallet(0, p);
    // Release A: the executor key administers its ProgramFactory and made both lanes operators
    // (as src/core/engine/operators.ts does when a lane first deploys).
    const a = await deployProgram(p, "acme");
    pfA = a.programFactory;
    const pf = ProgramFactory__factory.connect(pfA, e);
    for (const lane of [lane1, lane2]) await (await pf.grantRole(OPERATOR, lane.address)).wait();
    // Release B: a 2-of-3 Safe administers it; the executor key is its operator, and the Safe
    // made both lanes operators.
    safe = await devSafe(p);
    const [points, factory, collateralVault, pspVault, oracle] = await pf.implementations();
    const impls = { points, factory, collateralVault, pspVault, oracle };
    const b = await new ProgramFactory__factory(e).deploy(safe.address, executor, impls, "b");
    pfB = await b.getAddress();
    for (const lane of [lane1, lane2]) {
      const tx = await safeTx(p, safe.address, { to: pfB, data: grant(OPERATOR, lane.address) });
      await execSafeTx(devWallet(9, p), safe.address, tx, safe.owners.slice(0, 2));
    }
    const d = await deployProgram(p, "delta", { release: { programFactory: pfB, usdc: a.usdc } });
    const registry = new ProgramRegistry(db);
    for (const r of [a.record, d.record]) await registry.insert(r);
    [acme, delta] = [a.record.factory, d.record.factory];
    keyId = (await new ApiKeys(db).create("ops")).info.id;
    slots = [
      [acme, EXECUTOR],
      [delta, EXECUTOR],
      [pfA, OPERATOR],
      [pfA, ZeroHash],
      [pfB, OPERATOR],
      [pfB, ZeroHash],
    ];
    assert.deepEqual(await rolesOf(executor), [true, true, true, true, true, false]);
    assert.deepEqual(await rolesOf(lane1.address), [false, false, true, false, true, false]);
    assert.deepEqual(await rolesOf(lane2.address), [false, false, true, false, true, false]);
    assert.deepEqual(await rolesOf(next.address), [false, false, false, false, false, false]);
  });
  after(async () => {
    await db?.close();
    await scratch?.drop();
    await node?.stop();
  });

  it("rotate_fromAnAddressHoldingNoRole_exits2_sendsNothing_andNamesTheConfiguredKeys", async () => {
    const block = await p.getBlockNumber();
    const stranger = Wallet.createRandom().address;
    // Neither the brand (MANAGER_ROLE only) nor an address nobody configured is a key to rotate.
    for (const from of [brand, stranger]) {
      const res = await run(["rotate", "--chain", "31337", "--from", from, "--to", next.address], oldLanes());
      assert.deepEqual(
        [res.code, res.stdout, res.stderr],
        [
          2,
          "",
          `${from} holds no role of an executor or lane key on chain 31337 (EXECUTOR_ROLE on a registered program's Factory, OPERATOR_ROLE or DEFAULT_ADMIN_ROLE on a ProgramFactory); nothing was sent. The keys of the EXECUTOR settings: ${executor} (executor), ${lane1.address} (lane 1), ${lane2.address} (lane 2)\n`,
        ],
      );
    }
    assert.equal(await p.getBlockNumber(), block);
    assert.deepEqual(await rolesOf(next.address), [false, false, false, false, false, false]);
  });

  let proposalId: string;
  it("rotate_aLaneKey_grantsItsOperatorRolesOnly_theExecutorKeySends_theSafeGetsAProposal", async () => {
    const res = await run(
      ["rotate", "--chain", "31337", "--from", lane1.address, "--to", next.address, "--proposal-owner", keyId],
      oldLanes(),
    );
    assert.equal(res.code, 3, res.stderr);
    const page = await new SafeProposals(db).list(keyId, { chainId: "31337", safe: safe.address }, { limit: 10 });
    assert.equal(page!.items.length, 1);
    const [proposal] = page!.items;
    proposalId = proposal!.id;
    assert.deepEqual(
      [proposal!.tx.to, proposal!.tx.data, proposal!.tx.nonce, proposal!.tx.operation],
      [pfB, grant(OPERATOR, next.address), "2", 0],
    );
    assert.equal(
      noTx(res.stdout),
      [
        `plan: chain 31337, lane key ${lane1.address} -> ${next.address}`,
        `  ProgramFactory           ${pfA}  OPERATOR_ROLE      grant: send, signed by ${executor} (a key held)`,
        `  ProgramFactory           ${pfB}  OPERATOR_ROLE      grant: Safe proposal to ${safe.address}`,
        `sent: grantRole OPERATOR_ROLE ${next.address} on ProgramFactory ${pfA} (tx)`,
        `proposed: grantRole OPERATOR_ROLE ${next.address} on ProgramFactory ${pfB}; proposal ${proposalId} of Safe ${safe.address} (nonce 2, 2 signature(s) needed)`,
        "waiting: 1 change(s) need another signer (above); run again once they are executed",
        "",
      ].join("\n"),
    );
    // Exactly lane 1's role on release A moved; no executor role; nobody else's changed.
    assert.deepEqual(await rolesOf(next.address), [false, false, true, false, false, false]);
    assert.deepEqual(await rolesOf(lane1.address), [false, false, true, false, true, false]);
    assert.deepEqual(await rolesOf(lane2.address), [false, false, true, false, true, false]);
    assert.deepEqual(await rolesOf(executor), [true, true, true, true, true, false]);
  });

  it("retire_aLaneKey_whileItsSuccessorLacksARole_isRefused_exits4_sendsNothing", async () => {
    // The executor key is an operator of release B: only the new lane key is checked against lane 1.
    assert.equal(await has(pfB, OPERATOR, executor), true);
    const block = await p.getBlockNumber();
    const res = await run(["retire", "--chain", "31337", "--old", lane1.address], [...newLanes(), lane1.privateKey]);
    assert.equal(res.code, 4, res.stderr);
    assert.equal(
      res.stdout,
      [
        `refused: the keys of the EXECUTOR settings do not all hold every role lane key ${lane1.address} holds; nothing was sent. Missing:`,
        `  OPERATOR_ROLE on ProgramFactory ${pfB}: ${next.address}`,
        `run \`points-api executor rotate --chain 31337 --from ${lane1.address} --to ${next.address}\` and finish its steps`,
        "",
      ].join("\n"),
    );
    assert.equal(await p.getBlockNumber(), block);
    assert.deepEqual(await rolesOf(lane1.address), [false, false, true, false, true, false]);
  });

  it("rotate_aLaneKey_onceTheSafeExecuted_everyRoleIsInPlace_andARerunIsANoOp", async () => {
    const stored = (await new SafeProposals(db).get(keyId, proposalId))!;
    const tx = { ...stored.tx, value: 0n, safeTxGas: 0n, baseGas: 0n, gasPrice: 0n, nonce: BigInt(stored.tx.nonce) };
    await execSafeTx(devWallet(9, p), safe.address, tx as never, safe.owners.slice(0, 2));
    assert.deepEqual(await rolesOf(next.address), [false, false, true, false, true, false]);
    const block = await p.getBlockNumber();
    const again = await run(["rotate", "--chain", "31337", "--from", lane1.address, "--to", next.address], oldLanes());
    assert.equal(again.code, 0, again.stderr);
    assert.equal(await p.getBlockNumber(), block);
    assert.equal(
      again.stdout,
      [
        `plan: chain 31337, lane key ${lane1.address} -> ${next.address}`,
        `  ProgramFactory           ${pfA}  OPERATOR_ROLE      in place`,
        `  ProgramFactory           ${pfB}  OPERATOR_ROLE      in place`,
        "done: 0 change(s) made",
        "",
      ].join("\n"),
    );
  });

  it("retire_aLaneKey_onceItsSuccessorHoldsEveryRole_renouncesItsRoles_theOtherKeysUntouched", async () => {
    const res = await run(["retire", "--chain", "31337", "--old", lane1.address], [...newLanes(), lane1.privateKey]);
    assert.equal(res.code, 0, res.stderr);
    const balance = await p.getBalance(lane1.address);
    const lines = noTx(res.stdout).trim().split("\n");
    assert.deepEqual(lines.slice(0, -1), [
      `plan: chain 31337, retire lane key ${lane1.address} (every other key of the EXECUTOR settings holds all its roles)`,
      `  ProgramFactory           ${pfA}  OPERATOR_ROLE      renounce: send, signed by ${lane1.address} (a key held)`,
      `  ProgramFactory           ${pfB}  OPERATOR_ROLE      renounce: send, signed by ${lane1.address} (a key held)`,
      `sent: renounceRole OPERATOR_ROLE ${lane1.address} on ProgramFactory ${pfA} (tx)`,
      `sent: renounceRole OPERATOR_ROLE ${lane1.address} on ProgramFactory ${pfB} (tx)`,
      "done: 2 change(s) made",
    ]);
    assert.match(
      lines.at(-1)!,
      new RegExp(`^${lane1.address} still holds [0-9.]+ native \\(${balance} wei\\) on chain 31337$`),
    );
    assert.deepEqual(await rolesOf(lane1.address), [false, false, false, false, false, false]);
    assert.deepEqual(await rolesOf(next.address), [false, false, true, false, true, false]);
    assert.deepEqual(await rolesOf(lane2.address), [false, false, true, false, true, false]);
    assert.deepEqual(await rolesOf(executor), [true, true, true, true, true, false]);
    // Nothing left to retire: the same command sends nothing.
    const block = await p.getBlockNumber();
    const again = await run(["retire", "--chain", "31337", "--old", lane1.address], newLanes());
    assert.equal(again.code, 0, again.stderr);
    assert.equal(await p.getBlockNumber(), block);
  });
});
