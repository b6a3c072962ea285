import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { parseUnits } from "ethers";
import { actors, deployProgram, fundedCampaign, startNode, type DevNode, type ProgramRecord } from "@points/testkit";
import { Factory__factory, Points__factory } from "@points/contracts";
import type { TestApi } from "./helpers/service.js";
import { brandBuysSp, ledgerApiAtHead } from "./helpers/ledger.js";

const sp = (n: number) => parseUnits(String(n), 18).toString();
const iso = (seconds: bigint) => new Date(Number(seconds) * 1000).toISOString();

// The contract stores a ready time per request (the delay in force when it was
// made); the ledger applied the latest delay to every request, so after setRedeemDelay(3600) a
// request made at delay 0 read "pending" while the chain let it finalize.
describe("ledger: each redemption's ready time is the chain's", () => {
  let node: DevNode;
  let api: TestApi;
  let auth: Record<string, string>;
  let program: ProgramRecord;

  before(async () => {
    node = await startNode();
    let usdc: string;
    ({ record: program, usdc } = await deployProgram(node.provider, "acme"));
    const { brand } = actors(node.provider);
    const factory = Factory__factory.connect(program.factory, brand);
    // A funded campaign leaves the brand able to mint and hold SP, as in ledger.routes.test.ts.
    await fundedCampaign(node.provider, program, usdc, "launch", 100n);
    await (await factory.addToMintWhitelist(brand.address)).wait();
    await (await factory.addToRedeemWhitelist(brand.address)).wait();
    await brandBuysSp(node.provider, program, usdc, 20n);
    await (await Points__factory.connect(program.points, brand).approve(program.factory, sp(20))).wait();
    // Request 1 at delay 0 (ready at once), then the delay goes to 1 h and request 2 is made.
    await (await factory.setRedeemDelay(0)).wait();
    await (await factory.requestRedeem(usdc, brand.address, sp(10), false)).wait();
    await (await factory.setRedeemDelay(3600)).wait();
    await (await factory.requestRedeem(usdc, brand.address, sp(10), false)).wait();
    ({ api, auth } = await ledgerApiAtHead(node.url, node.provider, program, "acme", "ledger"));
  });
  after(async () => {
    await api?.close();
    await node?.stop();
  });

  it("redemptions_afterADelayChange_keepTheirOwnReadyAt_asFactoryRedeemReadyAt", async () => {
    const factory = Factory__factory.connect(program.factory, node.provider);
    const res = await api.call("GET", "/api/v1/ledger/redemptions", undefined, auth);
    assert.equal(res.status, 200);
    const { requests } = (res.body as { data: { requests: { requestId: string; status: string; readyAt: string }[] } })
      .data;
    assert.deepEqual(
      requests.map((r) => [r.requestId, r.status, r.readyAt]),
      [
        ["2", "pending", iso(await factory.redeemReadyAt(2))],
        ["1", "ready", iso(await factory.redeemReadyAt(1))],
      ],
    );
    // The chain agrees: its requester may finalize request 1 now, and request 2 only at its readyAt.
    const asBrand = Factory__factory.connect(program.factory, actors(node.provider).brand);
    await asBrand.finalizeRedeem.staticCall(1);
    await assert.rejects(asBrand.finalizeRedeem.staticCall(2), (e: any) => {
      assert.equal(e.revert?.name, "RedeemDelayNotElapsed");
      assert.deepEqual(e.revert.args.map(String), ["2", String(Date.parse(requests[0]!.readyAt) / 1000)]);
      return true;
    });
  });
});
