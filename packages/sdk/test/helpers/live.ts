import { MockStablecoin__factory } from "@points/contracts";
import { startNode, type LocalNode } from "../../../api/test/helpers/node.js";
import { actors, deployProgram } from "../../../api/test/helpers/program.js";
import { startApi, type TestApi } from "../../../api/test/helpers/service.js";
import { createClient, type PointsClient } from "../../src/index.js";

/** A hardhat node, one program on it (brand wallet = admin), the API over it, a key and a client. */
export interface Live {
  node: LocalNode;
  api: TestApi;
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
    const api = await startApi(node.url);
    await api.service.ctx.programs.insert(record);
    const { key } = await api.service.ctx.keys.create("sdk-tests");
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
