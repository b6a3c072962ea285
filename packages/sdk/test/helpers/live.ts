import { MaxUint256, type Signer } from "ethers";
import { MockStablecoin__factory, Points__factory } from "@points/contracts";
import * as pointsApi from "@points/api";
import { actors, deployProgram, startApi, startNode, type DevNode, type TestApi } from "@points/testkit";
import assert from "node:assert/strict";
import {
  createClient,
  PointsApiError,
  withPrerequisites,
  type PointsClient,
  type PreparedTx,
} from "../../src/index.js";

/** A hardhat node, one program on it (brand wallet = admin), the API over it, a key and a client. */
export interface Live {
  node: DevNode;
  api: TestApi<pointsApi.Service>;
  apiKey: string;
  auth: Record<string, string>;
  client: PointsClient;
  program: Awaited<ReturnType<typeof deployProgram>>["record"];
  usdc: string;
  actors: ReturnType<typeof actors>;
  stop(): Promise<void>;
}

export async function startLive(): Promise<Live> {
  const node = await startNode();
  try {
    const { record, usdc } = await deployProgram(node.provider);
    const api = await startApi(pointsApi, node.url);
    await api.service.ctx.programs.insert(record);
    const { key } = await api.service.ctx.keys.create("sdk-tests", ["build", "read", "deploy", "admin"]);
    return {
      node,
      api,
      apiKey: key,
      auth: { authorization: `Bearer ${key}` },
      client: createClient({ baseUrl: api.url, apiKey: key }),
      program: record,
      usdc,
      actors: actors(node.provider),
      async stop() {
        await api.close();
        await node.stop();
      },
    };
  } catch (e) {
    await node.stop();
    throw e;
  }
}

/** Open-mint mock USDC (6 decimals) straight to `to`, signed by account 0. */
export async function mintUsdc(live: Live, to: string, amount: bigint) {
  const usdc = MockStablecoin__factory.connect(live.usdc, live.actors.executor);
  await (await usdc.mint(to, amount)).wait();
}

/** Builds and sends; when the API first asks for another transaction (an approval), sends that first. */
export async function sendWithPrerequisite(build: () => Promise<PreparedTx>, signer: Signer) {
  return (await withPrerequisites(build, signer)).send(signer);
}

/**
 * The brand wallet ready to fund campaigns and redeem: on the transfer, mint and redeem
 * allowlists, unlimited approvals (USDC and SP to the Factory, SP to the PSPVault), and
 * `usdc` units of collateral, `deposit` of which are minted into SP through the SDK.
 */
export async function seedBrand(live: Live, usdc: bigint, deposit = usdc) {
  const { client, actors, program } = live;
  const { brand } = actors;
  const from = { from: brand.address };
  await (await client.points.addToTransferWhitelist(brand.address, from)).send(brand);
  await (await client.factory.addToMintWhitelist(brand.address, from)).send(brand);
  await (await client.factory.addToRedeemWhitelist(brand.address, from)).send(brand);
  await mintUsdc(live, brand.address, usdc);
  const usdcToken = MockStablecoin__factory.connect(live.usdc, brand);
  await (await usdcToken.approve(program.factory, MaxUint256)).wait();
  const sp = Points__factory.connect(program.points, brand);
  await (await sp.approve(program.factory, MaxUint256)).wait();
  await (await sp.approve(program.pspVault, MaxUint256)).wait();
  await (await client.build.mint({ asset: live.usdc, amount: deposit.toString() }, from)).send(brand);
}

/** `send` with `actual`'s signer of a transaction built for `expected`: WRONG_SIGNER, and `actual` sent nothing. */
export async function expectWrongSigner(live: Live, sending: () => Promise<unknown>, expected: string, actual: string) {
  const before = await live.node.provider.getTransactionCount(actual);
  await assert.rejects(sending(), (e: unknown) => {
    assert.ok(e instanceof PointsApiError);
    assert.equal(e.code, "WRONG_SIGNER");
    assert.deepEqual(e.details, { expected, actual });
    return true;
  });
  assert.equal(await live.node.provider.getTransactionCount(actual), before);
}

/** Creates campaign `campaignId` with `spBudget` and no allowlists, signed by `signer` (default: the brand). */
export async function createCampaign(
  live: Live,
  campaignId: string,
  spBudget: bigint,
  signer: Signer = live.actors.brand,
) {
  const campaign = { campaignId, spBudget, settlementDestinations: [], transferWhitelist: [], metadata: "" };
  await (await live.client.vault.createCampaign(campaign, { from: live.actors.brand.address })).send(signer);
}

/**
 * A live API and chain with the brand seeded with `usdc` units of collateral (all minted into
 * SP) and one campaign `campaignId` of `spBudget` SP created by the brand, no allowlists.
 */
export async function liveWithCampaign(usdc: bigint, campaignId: string, spBudget: bigint): Promise<Live> {
  const live = await startLive();
  await seedBrand(live, usdc);
  await createCampaign(live, campaignId, spBudget);
  return live;
}
