import assert from "node:assert/strict";
import { id } from "ethers";
import { Factory__factory } from "@points/contracts";
import { devSafe, devWallet } from "@points/testkit";
import type { PointsClient } from "../../src/index.js";
import type { Live } from "./live.js";
import type { routeRecorder } from "./routeRecorder.js";

/**
 * The Safe methods on a real 2-of-3 Safe: a pause proposed, signed by two owners and executed by
 * a relayer; then two allowlist additions batched through MultiSendCallOnly. Each call goes
 * through `expectRoute`, so the namespaces test counts the routes it reached.
 */
export async function walkSafeProposals(
  live: Live,
  client: PointsClient,
  safe: Awaited<ReturnType<typeof devSafe>>,
  expectRoute: ReturnType<typeof routeRecorder>["expectRoute"],
): Promise<void> {
  const p = live.node.provider;
  const factory = Factory__factory.connect(live.program.factory, live.actors.brand);
  await (await factory.grantRole(id("PAUSER_ROLE"), safe.address)).wait();
  const built = await client.freeze.pause("factory", { from: safe.address as `0x${string}` });
  const s = built.safe!;
  assert.equal(s.address, safe.address);
  const sign = (i: number) => safe.owners[i]!.signTypedData(s.typedData.domain, s.typedData.types, s.typedData.message);
  const created = (await expectRoute(
    "safeProposalCreate",
    () => client.safe.propose({ chainId: 31337, safe: safe.address, tx: s.tx }),
    201,
  )) as { id: string; status: string; safeTxHash: string };
  assert.deepEqual([created.status, created.safeTxHash], ["pending", s.safeTxHash]);
  await expectRoute("safeProposalSign", async () => client.safe.sign(created.id, await sign(0)));
  const two = (await expectRoute("safeProposalSign", async () => client.safe.sign(created.id, await sign(2)))) as {
    status: string;
  };
  assert.equal(two.status, "executable");
  const listed = (await expectRoute("safeProposalList", () => client.safe.proposals({ status: "executable" }))) as {
    proposals: { id: string }[];
    nextCursor: string | null;
  };
  assert.equal(listed.nextCursor, null);
  assert.deepEqual(
    listed.proposals.map((x) => x.id),
    [created.id],
  );
  const relayer = devWallet(9, p);
  const exec = (await expectRoute("safeProposalExecute", () => client.safe.execute(created.id, relayer.address))) as {
    data: string;
    to: string;
  };
  await (await relayer.sendTransaction({ to: exec.to, data: exec.data })).wait();
  assert.equal(await factory.paused(), true);
  const done = (await expectRoute("safeProposalGet", () => client.safe.proposal(created.id))) as { status: string };
  assert.equal(done.status, "executed");
  await (await factory.unpause()).wait();
  // A batch: two Factory allowlist additions in one Safe transaction, through MultiSendCallOnly.
  await (await factory.grantRole(id("MANAGER_ROLE"), safe.address)).wait();
  const [a, b] = [devWallet(3, p).address, devWallet(4, p).address];
  // The actions name no program: the client's default fills it in, as for single calls.
  const actions = [a, b].map((account) => ({ route: "whitelistMintAdd" as const, body: { account } }));
  const batch = (await expectRoute("safeBatch", () =>
    client.safe.batch({ safe: safe.address, actions, multiSendCallOnly: safe.infra.multiSendCallOnly }),
  )) as Awaited<ReturnType<typeof client.safe.batch>>;
  assert.deepEqual([batch.safe.tx.operation, batch.safe.tx.to], [1, safe.infra.multiSendCallOnly]);
  const draft = batch.safe.typedData;
  const signed = await Promise.all(
    [0, 1].map((i) => safe.owners[i]!.signTypedData(draft.domain, draft.types, draft.message)),
  );
  const proposal = await client.safe.propose({
    chainId: 31337,
    safe: safe.address,
    tx: batch.safe.tx,
    signature: signed[0],
  });
  await client.safe.sign(proposal.id, signed[1]!);
  const run = await client.safe.execute(proposal.id, relayer.address);
  await (await relayer.sendTransaction({ to: run.to, data: run.data })).wait();
  assert.deepEqual([await factory.isMintWhitelisted(a), await factory.isMintWhitelisted(b)], [true, true]);
}
