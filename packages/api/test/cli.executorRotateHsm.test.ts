import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { ZeroHash, id, parseEther, type JsonRpcProvider } from "ethers";
import { Factory__factory, ProgramFactory__factory } from "@points/contracts";
import { actors, deployProgram, devWallet, freePort, startNode, type DevNode } from "@points/testkit";
import { createSoftHsm, type SoftHsm } from "@points/testkit/signers";
import { openDb, type Db } from "../src/core/db/db.js";
import { migrate } from "../src/core/db/migrations.js";
import { ProgramRegistry } from "../src/core/registry/programs.js";
import { cli } from "./helpers/cli.js";
import { createScratchDatabase, type ScratchDatabase } from "./helpers/db.js";

// `points-api executor keys|rotate|retire` with both executor keys inside a PKCS#11 token
// (SoftHSM2): the new key's address comes from the token, every change the executor sends is
// signed inside it, and a token that refuses the PIN stops the command before anything is sent.
const EXECUTOR = id("EXECUTOR_ROLE");
const OPERATOR = id("OPERATOR_ROLE");

describe("points-api executor keys/rotate/retire: keys inside a PKCS#11 token", () => {
  let node: DevNode;
  let p: JsonRpcProvider;
  let scratch: ScratchDatabase;
  let db: Db;
  let hsm: SoftHsm;
  let port: number;
  let acme: string, pf: string;
  let a: string, b: string;
  /** Every role the executor holds here: [contract, role]. */
  let slots: [string, string][];

  const run = (args: string[], labels: string, pin?: string) =>
    cli("/nonexistent", ["executor", ...args], {
      CHAINS: JSON.stringify([{ chainId: 31337, name: "Local", rpcUrl: `http://127.0.0.1:${port}`, testnet: true }]),
      DATABASE_URL: scratch.url,
      SOFTHSM2_CONF: hsm.conf,
      ...hsm.env(labels, pin),
    });
  const rolesOf = (account: string) =>
    Promise.all(slots.map(([c, r]) => ProgramFactory__factory.connect(c, p).hasRole(r, account)));
  /** The transactions of `stdout`'s `sent:` lines. */
  const sentTxs = (stdout: string) => [...stdout.matchAll(/^sent: .* \(tx (0x[0-9a-f]{64})\)$/gm)].map((m) => m[1]!);

  before(async () => {
    hsm = createSoftHsm([
      { label: "a", curve: "secp256k1" },
      { label: "b", curve: "secp256k1" },
    ]);
    [a, b] = [hsm.addresses.a!, hsm.addresses.b!];
    port = await freePort();
    [node, scratch] = await Promise.all([startNode({ port }), createScratchDatabase()]);
    p = node.provider;
    db = await openDb({ databaseUrl: scratch.url, dataDir: "/nonexistent" });
    await migrate(db);
    // The token's key "a" is the executor: EXECUTOR_ROLE on the program, operator and admin of
    // its ProgramFactory (granted by the keys that deployed them); "b" is the key to move to.
    const program = await deployProgram(p, "acme");
    await new ProgramRegistry(db).insert(program.record);
    [acme, pf] = [program.record.factory, program.programFactory];
    const dev = devWallet(0, p);
    await (await Factory__factory.connect(acme, actors(p).brand).grantRole(EXECUTOR, a)).wait();
    for (const role of [OPERATOR, ZeroHash]) {
      await (await ProgramFactory__factory.connect(pf, dev).grantRole(role, a)).wait();
      await (await ProgramFactory__factory.connect(pf, dev).renounceRole(role, dev.address)).wait();
    }
    await (await Factory__factory.connect(acme, actors(p).brand).revokeRole(EXECUTOR, dev.address)).wait();
    await (await dev.sendTransaction({ to: a, value: parseEther("1") })).wait();
    slots = [
      [acme, EXECUTOR],
      [pf, OPERATOR],
      [pf, ZeroHash],
    ];
    assert.deepEqual(await rolesOf(a), [true, true, true]);
    assert.deepEqual(await rolesOf(b), [false, false, false]);
  });
  after(async () => {
    await db?.close();
    await scratch?.drop();
    await node?.stop();
    hsm?.remove();
  });

  it("keys_printsEachTokenKeysAddressAndBalance_executorKeyFirst", async () => {
    const res = await run(["keys", "--chain", "31337"], "a,b");
    assert.equal(res.code, 0, res.stderr);
    const [balanceA, balanceB] = [await p.getBalance(a), await p.getBalance(b)];
    assert.equal(
      res.stdout,
      [
        `executor: ${a} (pkcs11:a), 1.0 native (${balanceA} wei) on chain 31337`,
        `lane 1: ${b} (pkcs11:b), 0.0 native (${balanceB} wei) on chain 31337`,
        "",
      ].join("\n"),
    );
  });

  it("rotate_withAWrongPin_isSIGNER_LOGIN_FAILED_exits1_sendsNothing", async () => {
    const block = await p.getBlockNumber();
    const res = await run(["rotate", "--chain", "31337", "--to", b], "a", "000000");
    assert.deepEqual(
      [res.code, res.stdout, res.stderr],
      [1, "", "points-api: SIGNER_LOGIN_FAILED: PKCS#11 login to the token refused: CKR_PIN_INCORRECT\n"],
    );
    assert.equal(await p.getBlockNumber(), block);
  });

  it("keys_withALabelTheTokenDoesNotHold_isSIGNER_KEY_NOT_FOUND_exits1", async () => {
    const res = await run(["keys", "--chain", "31337"], "a,c");
    assert.deepEqual(
      [res.code, res.stdout, res.stderr],
      [1, "", 'points-api: SIGNER_KEY_NOT_FOUND: the token holds no private key labelled "c"\n'],
    );
  });

  it("rotate_signsEachGrantInTheToken_lowS_andPrintsTheBrandsShare", async () => {
    const res = await run(["rotate", "--chain", "31337", "--to", b], "a");
    assert.equal(res.code, 3, res.stderr);
    const txs = sentTxs(res.stdout);
    assert.equal(txs.length, 2, res.stdout);
    for (const hash of txs) {
      const tx = (await p.getTransaction(hash))!;
      assert.equal(tx.from, a);
      assert.ok(BigInt(tx.signature.s) <= 2n ** 255n, "low s");
    }
    assert.deepEqual(await rolesOf(b), [false, true, true]);
    // The brand administers EXECUTOR_ROLE: it signs the printed call as printed.
    const call =
      /^unsigned: grantRole EXECUTOR_ROLE .*; to=(0x[0-9a-fA-F]{40}) data=(0x[0-9a-f]+) value=0, to be signed by (0x[0-9a-fA-F]{40})$/m.exec(
        res.stdout,
      );
    assert.ok(call, res.stdout);
    assert.equal(call[3], actors(p).brand.address);
    await (await actors(p).brand.sendTransaction({ to: call[1], data: call[2] })).wait();
    const again = await run(["rotate", "--chain", "31337", "--to", b], "a");
    assert.equal(again.code, 0, again.stderr);
    assert.equal(again.stdout.trim().split("\n").at(-1), "done: 0 change(s) made");
    assert.deepEqual(await rolesOf(b), [true, true, true]);
  });

  it("retire_withTheOldKeyAsALane_renouncesInTheToken_andTheNewKeyHoldsEverything", async () => {
    const res = await run(["retire", "--chain", "31337", "--old", a], "b,a");
    assert.equal(res.code, 0, res.stderr);
    const txs = sentTxs(res.stdout);
    assert.equal(txs.length, 3, res.stdout);
    for (const hash of txs) assert.equal((await p.getTransaction(hash))!.from, a);
    assert.deepEqual(await rolesOf(a), [false, false, false]);
    assert.deepEqual(await rolesOf(b), [true, true, true]);
    const balance = await p.getBalance(a);
    assert.match(
      res.stdout.trim().split("\n").at(-1)!,
      new RegExp(`^${a} still holds [0-9.]+ native \\(${balance} wei\\) on chain 31337$`),
    );
  });
});
