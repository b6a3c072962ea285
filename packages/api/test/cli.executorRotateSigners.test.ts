import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { ZeroHash, id, parseEther, type JsonRpcProvider } from "ethers";
import { Factory__factory, ProgramFactory__factory } from "@points/contracts";
import { actors, deployProgram, devWallet, freePort, startNode, type DevNode } from "@points/testkit";
import {
  FAKE_ACCESS_KEY_ID,
  FAKE_SECRET_ACCESS_KEY,
  createSoftHsm,
  startFakeKms,
  type FakeKms,
  type SoftHsm,
} from "@points/testkit/signers";
import { openDb, type Db } from "../src/core/db/db.js";
import { migrate } from "../src/core/db/migrations.js";
import { ProgramRegistry } from "../src/core/registry/programs.js";
import { cli } from "./helpers/cli.js";
import { createScratchDatabase, type ScratchDatabase } from "./helpers/db.js";

// `points-api executor keys|rotate|retire` with both executor keys in a signer backend: a
// PKCS#11 token (SoftHSM2) and AWS KMS (the AWS SDK against the local fake). The new key's
// address comes from the backend, every change the executor sends is signed there, and a
// backend that refuses stops the command before anything is sent.
const EXECUTOR = id("EXECUTOR_ROLE");
const OPERATOR = id("OPERATOR_ROLE");

/** A backend holding two secp256k1 keys, "a" (the executor) and "b" (the key to move to). */
interface Backend {
  /** Opens it; `addresses` of "a" and "b". */
  open(): Promise<{ addresses: [string, string]; close(): Promise<void> | void }>;
  /** The CLI's settings for the keys `labels` ("a,b"): `bad` makes the backend refuse. */
  env(labels: string, bad?: boolean): Record<string, string>;
  /** How `describe` names key "a"/"b". */
  describe(label: string): string;
  /** Settings the backend refuses at start, and what the CLI prints then. */
  refusals: { labels: string; bad?: boolean; stderr: string }[];
}

let hsm: SoftHsm;
let kms: FakeKms;
const backends: Record<string, Backend> = {
  "PKCS#11 (SoftHSM2)": {
    open: async () => {
      hsm = createSoftHsm([
        { label: "a", curve: "secp256k1" },
        { label: "b", curve: "secp256k1" },
      ]);
      return { addresses: [hsm.addresses.a!, hsm.addresses.b!], close: () => hsm.remove() };
    },
    env: (labels, bad) => ({ SOFTHSM2_CONF: hsm.conf, ...hsm.env(labels, bad ? "000000" : undefined) }),
    describe: (label) => `pkcs11:${label}`,
    refusals: [
      {
        labels: "a",
        bad: true,
        stderr: "points-api: SIGNER_LOGIN_FAILED: PKCS#11 login to the token refused: CKR_PIN_INCORRECT\n",
      },
      { labels: "a,c", stderr: 'points-api: SIGNER_KEY_NOT_FOUND: the token holds no private key labelled "c"\n' },
    ],
  },
  "AWS KMS (local fake)": {
    open: async () => {
      kms = await startFakeKms({
        a: { keySpec: "ECC_SECG_P256K1" },
        b: { keySpec: "ECC_SECG_P256K1" },
        denied: { keySpec: "ECC_SECG_P256K1", fault: "AccessDeniedException" },
        p256: { keySpec: "ECC_NIST_P256" },
      });
      return { addresses: [kms.address("a"), kms.address("b")], close: () => kms.close() };
    },
    env: (labels) => ({
      ...kms.env(labels),
      AWS_ACCESS_KEY_ID: FAKE_ACCESS_KEY_ID,
      AWS_SECRET_ACCESS_KEY: FAKE_SECRET_ACCESS_KEY,
      AWS_EC2_METADATA_DISABLED: "true",
    }),
    describe: (label) => `aws-kms:${label}`,
    refusals: [
      {
        labels: "a,denied",
        stderr:
          'points-api: SIGNER_LOGIN_FAILED: reading AWS KMS key "denied": AWS refused the credentials or their permission (AccessDeniedException): the credentials of the AWS SDK\'s default chain must be allowed kms:GetPublicKey and kms:Sign on the key\n',
      },
      {
        labels: "a,p256",
        stderr:
          'points-api: SIGNER_KEY_CURVE: AWS KMS key "p256" is ECC_NIST_P256, not ECC_SECG_P256K1 (secp256k1); Ethereum needs secp256k1: create the key with --key-spec ECC_SECG_P256K1 --key-usage SIGN_VERIFY\n',
      },
    ],
  },
};

for (const [name, backend] of Object.entries(backends))
  describe(`points-api executor keys/rotate/retire: keys in ${name}`, () => {
    let node: DevNode;
    let p: JsonRpcProvider;
    let scratch: ScratchDatabase;
    let db: Db;
    let closeBackend: () => Promise<void> | void;
    let port: number;
    let acme: string, pf: string;
    let a: string, b: string;
    /** Every role the executor holds here: [contract, role]. */
    let slots: [string, string][];

    const run = (args: string[], labels: string, bad?: boolean) =>
      cli("/nonexistent", ["executor", ...args], {
        CHAINS: JSON.stringify([{ chainId: 31337, name: "Local", rpcUrl: `http://127.0.0.1:${port}`, testnet: true }]),
        DATABASE_URL: scratch.url,
        ...backend.env(labels, bad),
      });
    const rolesOf = (account: string) =>
      Promise.all(slots.map(([c, r]) => ProgramFactory__factory.connect(c, p).hasRole(r, account)));
    /** The transactions of `stdout`'s `sent:` lines. */
    const sentTxs = (stdout: string) => [...stdout.matchAll(/^sent: .* \(tx (0x[0-9a-f]{64})\)$/gm)].map((m) => m[1]!);

    before(async () => {
      const opened = await backend.open();
      [[a, b], closeBackend] = [opened.addresses, () => opened.close()];
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
      await closeBackend?.();
    });

    it("keys_printsEachKeysAddressAndBalance_executorKeyFirst", async () => {
      const res = await run(["keys", "--chain", "31337"], "a,b");
      assert.equal(res.code, 0, res.stderr);
      const [balanceA, balanceB] = [await p.getBalance(a), await p.getBalance(b)];
      assert.equal(
        res.stdout,
        [
          `executor: ${a} (${backend.describe("a")}), 1.0 native (${balanceA} wei) on chain 31337`,
          `lane 1: ${b} (${backend.describe("b")}), 0.0 native (${balanceB} wei) on chain 31337`,
          "",
        ].join("\n"),
      );
    });

    it("rotateAndKeys_whenTheBackendRefuses_exit1_withTheSignersCode_sendNothing", async () => {
      const block = await p.getBlockNumber();
      for (const refusal of backend.refusals)
        for (const command of [["keys"], ["rotate", "--to", b]]) {
          const res = await run([...command, "--chain", "31337"], refusal.labels, refusal.bad);
          assert.deepEqual([res.code, res.stdout, res.stderr], [1, "", refusal.stderr], refusal.labels);
        }
      assert.equal(await p.getBlockNumber(), block);
      assert.deepEqual(await rolesOf(b), [false, false, false]);
    });

    it("rotate_signsEachGrantInTheBackend_lowS_andPrintsTheBrandsShare", async () => {
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

    it("retire_withTheOldKeyAsALane_renouncesInTheBackend_andTheNewKeyHoldsEverything", async () => {
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
