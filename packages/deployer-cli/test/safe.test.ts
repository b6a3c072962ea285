/**
 * handover and upgrade through the built CLI when an admin is a real 2-of-3 Safe v1.4.1: the CLI
 * prints the Safe transaction (to, data, operation, nonce, safeTxHash, EIP-712 typed data) instead
 * of plain transactions; two owners sign its typed data, a relayer executes it, the chain is checked.
 */
import assert from "node:assert/strict";
import { Contract, Interface, TypedDataEncoder, verifyTypedData } from "ethers";
import { devSafe, devWallet, execTransaction, packSignatures, startNode, type DevNode } from "@points/testkit";
import { IMPLEMENTATION_SLOT, type SafeTxFields } from "@points/deployer";
import { ACCOUNTS, cliEnv, deployArgs, errorLine, requireBuilt, runCli, tempDir, upgradeArgs } from "./helpers.js";
import { startFakeSafeService } from "./fakeSafeService.js";
import { startLiveApi } from "./liveApi.js";

interface Printed {
  proposalId?: string;
  chainId: string;
  safe: string;
  threshold: number;
  calls: { to: string; data: string }[];
  tx: SafeTxFields;
  safeTxHash: string;
  typedData: {
    domain: { chainId: string; verifyingContract: string };
    types: Record<string, { name: string; type: string }[]>;
    message: Record<string, string | number>;
  };
}

const ADMIN = new Interface([
  "function defaultAdmin() view returns (address)",
  "function pendingDefaultAdmin() view returns (address, uint48)",
  "function upgradeToAndCall(address, bytes)",
  "function name() view returns (string)",
  "function version() view returns (string)",
  "function getTransactionHash(address,uint256,bytes,uint8,uint256,uint256,uint256,address,address,uint256) view returns (bytes32)",
]);
const KEYS = ["points", "factory", "collateralVault", "pspVault"] as const;

describe("points-deployer with a Safe as admin: Safe transactions printed, signed by two owners, executed", function () {
  this.timeout(300_000);
  let node: DevNode;
  let manifests: string;
  let safe: Awaited<ReturnType<typeof devSafe>>;
  let addresses: Record<(typeof KEYS)[number], string>;
  const as = (key?: string) => cliEnv(node.url, key);
  const common = () => ["--brand", "acme", "--manifest-dir", manifests];
  const at = (address: string) => new Contract(address, ADMIN, node.provider);
  const admins = () => Promise.all(KEYS.map((k) => at(addresses[k]).getFunction("defaultAdmin")()));
  const pendings = async () =>
    Promise.all(KEYS.map(async (k) => ((await at(addresses[k]).getFunction("pendingDefaultAdmin")()) as string[])[0]));

  /** Runs the CLI expecting a printed Safe transaction (JSON). */
  const printed = async (args: string[], key?: string): Promise<Printed> => {
    const r = await runCli([...args, "--json"], as(key));
    assert.equal(r.code, 0, r.stderr);
    return JSON.parse(r.stdout) as Printed;
  };
  /** Two owners sign the printed typed data; a wallet owning nothing relays execTransaction. */
  const execute = async (p: Printed) => {
    // ethers takes the types without EIP712Domain (wallets need it: test/safeTypedData.test.ts).
    const { EIP712Domain, ...types } = p.typedData.types;
    assert.deepEqual(EIP712Domain, [
      { name: "chainId", type: "uint256" },
      { name: "verifyingContract", type: "address" },
    ]);
    const hash = TypedDataEncoder.hash(p.typedData.domain, types, p.typedData.message);
    assert.equal(hash, p.safeTxHash);
    const t = p.tx as unknown as Record<string, string>;
    const onChain = await at(p.safe).getFunction("getTransactionHash")(
      t.to,
      t.value,
      t.data,
      t.operation,
      t.safeTxGas,
      t.baseGas,
      t.gasPrice,
      t.gasToken,
      t.refundReceiver,
      t.nonce,
    );
    assert.equal(onChain, p.safeTxHash, "the Safe hashes the printed transaction to the printed safeTxHash");
    const sigs = await Promise.all(
      [safe.owners[0]!, safe.owners[2]!].map(async (o) => ({
        owner: o.address,
        signature: await o.signTypedData(p.typedData.domain, types, p.typedData.message),
      })),
    );
    const receipt = await execTransaction(devWallet(9, node.provider), p.safe, p.tx, packSignatures(sigs));
    assert.equal(receipt.status, 1);
  };

  before(async () => {
    requireBuilt();
    node = await startNode();
    manifests = tempDir("safe");
    const r = await runCli(deployArgs("acme", manifests), as(ACCOUNTS.executor.key));
    assert.equal(r.code, 0, r.stderr);
    const status = await runCli(["handover", "status", "--json", ...common()], as());
    addresses = Object.fromEntries(
      (JSON.parse(status.stdout) as { contracts: { contract: string; proxy: string }[] }).contracts.map((c) => [
        c.contract,
        c.proxy,
      ]),
    ) as typeof addresses;
    safe = await devSafe(node.provider);
  });
  after(async () => node?.stop());

  it("propose_forAWalletAdmin_isRefused_theWalletSignsItsOwnTransactions", async () => {
    const r = await runCli(
      ["handover", "begin", "--unsigned", "--propose", "--new-admin", safe.address, ...common()],
      as(),
    );
    assert.notEqual(r.code, 0);
    assert.match(errorLine(r), /is not a Safe/);
  });

  it("walletToSafe_theBrandBegins_theSafeAcceptsThroughOnePrintedMultiSendTransaction", async () => {
    const begin = await runCli(["handover", "begin", "--new-admin", safe.address, ...common()], as(ACCOUNTS.brand.key));
    assert.equal(begin.code, 0, begin.stderr);
    await node.mine();
    const p = await printed([
      "handover",
      "accept",
      "--unsigned",
      "--multi-send-call-only",
      safe.infra.multiSendCallOnly,
      ...common(),
    ]);
    assert.deepEqual(
      [p.safe, p.threshold, p.tx.operation, p.tx.to, p.tx.nonce],
      [safe.address, 2, 1, safe.infra.multiSendCallOnly, "0"],
    );
    assert.deepEqual(new Set(p.calls.map((c) => c.to)), new Set(Object.values(addresses)));
    await execute(p);
    assert.deepEqual(
      await admins(),
      KEYS.map(() => safe.address),
    );
  });

  it("upgrade_ofASafeAdminsProgram_refusesAnUnsafeLayoutFirst_thenPrintsTheSafeTransaction_executedItKeepsState", async () => {
    const unsafe = await runCli(
      [...upgradeArgs("acme", "PointsV2UnsafeMock", manifests), "--unsigned"],
      as(ACCOUNTS.other.key),
    );
    assert.equal(unsafe.code, 5);
    assert.match(errorLine(unsafe), /^error \[UNSAFE_UPGRADE\]: /);
    const points = at(addresses.points);
    const name = await points.getFunction("name")();
    const p = await printed([...upgradeArgs("acme", "PointsV2Mock", manifests), "--unsigned"], ACCOUNTS.other.key);
    assert.deepEqual([p.tx.to, p.tx.operation, p.tx.nonce], [addresses.points, 0, "1"]);
    const [impl] = ADMIN.decodeFunctionData("upgradeToAndCall", p.tx.data) as unknown as [string];
    await execute(p);
    const slot = await node.provider.getStorage(addresses.points, IMPLEMENTATION_SLOT);
    assert.equal(`0x${slot.slice(-40)}`, impl.toLowerCase());
    assert.equal(await points.getFunction("version")(), "2");
    assert.equal(await points.getFunction("name")(), name);
    assert.equal(await points.getFunction("defaultAdmin")(), safe.address);
  });

  it("propose_aSafeHandoverBegin_isStoredInTheLiveApi_listedWithThePrintedSafeTxHash_aReadOnlyKeyIsRefused", async () => {
    const api = await startLiveApi(node.url);
    try {
      const { key } = await api.service.ctx.keys.create("deployer", ["build", "read"]);
      const { key: readOnly } = await api.service.ctx.keys.create("reader", ["read"]);
      const args = [
        "handover",
        "begin",
        "--unsigned",
        "--propose",
        "--api-url",
        api.url,
        "--new-admin",
        ACCOUNTS.other.address,
        "--multi-send-call-only",
        safe.infra.multiSendCallOnly,
        ...common(),
      ];
      const refused = await runCli(args, { ...as(), POINTS_API_KEY: readOnly });
      assert.notEqual(refused.code, 0);
      assert.match(
        errorLine(refused),
        /the API refused the proposal \(FORBIDDEN: this API key lacks the "build" scope\)/,
      );
      const r = await runCli([...args, "--json"], { ...as(), POINTS_API_KEY: key });
      assert.equal(r.code, 0, r.stderr);
      const p = JSON.parse(r.stdout) as Printed;
      assert.ok(p.proposalId, "the printed transaction names its stored proposal");
      assert.deepEqual(
        [p.safe, p.tx.operation, p.tx.to, p.calls.length],
        [safe.address, 1, safe.infra.multiSendCallOnly, 4],
      );
      const query = `?chainId=31337&safe=${safe.address}`;
      const list = await api.call("GET", `/api/v1/safe/proposals${query}`, undefined, {
        authorization: `Bearer ${key}`,
      });
      assert.equal(list.status, 200);
      const { proposals, nextCursor } = list.body.data as {
        proposals: { id: string; safe: string; safeTxHash: string; status: string; tx: { nonce: string } }[];
        nextCursor: string | null;
      };
      assert.equal(nextCursor, null, "one page holds the one proposal");
      assert.deepEqual(
        proposals.map((x) => [x.id, x.safe, x.safeTxHash, x.status, x.tx.nonce]),
        [[p.proposalId, safe.address, p.safeTxHash, "pending", p.tx.nonce]],
      );
      // Proposing moves nothing: the Safe's owners have not signed it.
      assert.deepEqual(
        await pendings(),
        KEYS.map(() => "0x0000000000000000000000000000000000000000"),
      );
    } finally {
      await api.close();
    }
  });

  it("safeService_aSafeHandoverBegin_isProposedToTheTransactionService_signedByTheOwner_inApiKitsShape", async () => {
    const service = await startFakeSafeService();
    try {
      const args = [
        "handover",
        "begin",
        "--unsigned",
        "--safe-service",
        service.url,
        "--new-admin",
        ACCOUNTS.other.address,
        "--multi-send-call-only",
        safe.infra.multiSendCallOnly,
        ...common(),
      ];
      const owner = safe.owners[1]!;
      // No owner key: refused before anything is posted.
      const keyless = await runCli(args, as());
      assert.equal(keyless.code, 2);
      assert.match(errorLine(keyless), /--safe-service needs the proposing owner's key in SAFE_OWNER_PRIVATE_KEY/);
      // A key that is not an owner's: refused, nothing posted.
      const stranger = await runCli(args, { ...as(), SAFE_OWNER_PRIVATE_KEY: ACCOUNTS.other.key });
      assert.equal(stranger.code, 2);
      assert.match(errorLine(stranger), new RegExp(`${ACCOUNTS.other.address} is not an owner of the Safe`));
      assert.equal(service.requests.length, 0, "nothing was posted");

      const r = await runCli([...args, "--json"], { ...as(), SAFE_OWNER_PRIVATE_KEY: owner.privateKey });
      assert.equal(r.code, 0, r.stderr);
      const p = JSON.parse(r.stdout) as Printed & { safeService: { url: string; sender: string } };
      assert.deepEqual(p.safeService, { url: service.url, sender: owner.address });
      assert.equal(service.requests.length, 1);
      const [req] = service.requests;
      // The request @safe-global/api-kit's proposeTransaction sends.
      assert.equal(req!.method, "POST");
      assert.equal(req!.path, `/api/v1/safes/${safe.address}/multisig-transactions/`);
      const { contractTransactionHash, sender, signature, origin, ...fields } = req!.body;
      assert.deepEqual(fields, p.tx);
      assert.deepEqual([contractTransactionHash, sender, origin], [p.safeTxHash, owner.address, "points-deployer"]);
      const { EIP712Domain: _domain, ...types } = p.typedData.types;
      assert.equal(
        verifyTypedData(p.typedData.domain, types, p.typedData.message, signature as string),
        owner.address,
        "the signature is the owner's, of the printed Safe transaction",
      );

      // The service refuses: the CLI says so with its answer (exit 2).
      service.answerWith(422, '{"nonFieldErrors":["Signer=0x… is not an owner"]}');
      const refused = await runCli(args, { ...as(), SAFE_OWNER_PRIVATE_KEY: owner.privateKey });
      assert.equal(refused.code, 2);
      assert.match(
        errorLine(refused),
        /the Safe Transaction Service refused the proposal \(HTTP 422: \{"nonFieldErrors"/,
      );
      // Proposing moves nothing on chain.
      assert.deepEqual(
        await pendings(),
        KEYS.map(() => "0x0000000000000000000000000000000000000000"),
      );
    } finally {
      await service.close();
    }
  });

  it("safeToWallet_theSafeBeginsAndCancels_eachThroughOnePrintedTransaction", async () => {
    const p = await printed([
      "handover",
      "begin",
      "--unsigned",
      "--new-admin",
      ACCOUNTS.other.address,
      "--multi-send-call-only",
      safe.infra.multiSendCallOnly,
      ...common(),
    ]);
    assert.equal(p.calls.length, 4);
    await execute(p);
    assert.deepEqual(
      await pendings(),
      KEYS.map(() => ACCOUNTS.other.address),
    );
    await execute(
      await printed([
        "handover",
        "cancel",
        "--unsigned",
        "--multi-send-call-only",
        safe.infra.multiSendCallOnly,
        ...common(),
      ]),
    );
    assert.deepEqual(
      await pendings(),
      KEYS.map(() => "0x0000000000000000000000000000000000000000"),
    );
  });
});
