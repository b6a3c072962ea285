import assert from "node:assert/strict";
import type { Wallet } from "ethers";
import type { z } from "zod";
import { ErrorEnvelope, UnsignedTx, routes, type RouteName } from "@points/schema";
import {
  CollateralVault__factory,
  Factory__factory,
  MockStablecoin__factory,
  Oracle__factory,
  PSPVault__factory,
  Points__factory,
} from "@points/contracts";
import {
  actors,
  type DeployOptions,
  deployProgram,
  type DevNode,
  freePort,
  signAndSend,
  startNode,
} from "@points/testkit";
import { startApi, type TestApi } from "./service.js";
import type { ServiceOptions } from "../../src/service.js";

type Res = { status: number; body: any };
/** `data` of route N's success envelope. */
type Data<N extends RouteName> = z.output<(typeof routes)[N]["response"]> extends { data: infer D } ? D : never;

/** One request to a route of the table; `:name` segments of its path come from `params`. */
export interface Req {
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  /** Send the admin API key (default: only when the route needs one). */
  auth?: boolean;
}

/**
 * One file's world: a local node, one program (brand "acme", brand wallet = admin), the API on
 * it with an API key, typed contracts to read the chain back, and the test wallets. `apiEnv`
 * adds to the API's environment (given the node's URL).
 */
export async function setupE2E(
  opts: DeployOptions = {},
  apiEnv: (nodeUrl: string) => Record<string, string> = () => ({}),
  apiOpts: ServiceOptions = {},
) {
  // The node (another process) and the API's embedded database start side by side.
  const port = await freePort();
  const nodeUrl = `http://127.0.0.1:${port}`;
  const [started, apiStarted] = await Promise.allSettled([
    startNode({ port }),
    startApi(nodeUrl, apiEnv(nodeUrl), apiOpts),
  ]);
  if (started.status === "rejected" || apiStarted.status === "rejected") {
    if (started.status === "fulfilled") await started.value.stop();
    if (apiStarted.status === "fulfilled") await apiStarted.value.close();
    throw started.status === "rejected" ? started.reason : (apiStarted as PromiseRejectedResult).reason;
  }
  const node: DevNode = started.value;
  const api: TestApi = apiStarted.value;
  try {
    const deployed = await deployProgram(node.provider, "acme", opts);
    await api.service.ctx.programs.insert(deployed.record);
    const { key } = await api.service.ctx.keys.create("test");
    const p = node.provider;
    const r = deployed.record;
    const c = {
      factory: Factory__factory.connect(r.factory, p),
      points: Points__factory.connect(r.points, p),
      collateralVault: CollateralVault__factory.connect(r.collateralVault, p),
      pspVault: PSPVault__factory.connect(r.pspVault, p),
      oracle: r.oracle ? Oracle__factory.connect(r.oracle, p) : undefined,
      usdc: MockStablecoin__factory.connect(deployed.usdc, p),
    };
    const who = actors(p);
    const auth = { authorization: `Bearer ${key}` };

    /** Calls route `name` of the table. */
    const call = (name: RouteName, req: Req = {}): Promise<Res> => {
      const route = routes[name];
      let path = route.path.replace(/:(\w+)/g, (_, k: string) => encodeURIComponent(req.params?.[k] ?? `:${k}`));
      if (req.query) path += `?${new URLSearchParams(req.query)}`;
      const withKey = req.auth ?? route.auth === "key";
      return api.call(route.method.toUpperCase(), path, req.body, withKey ? auth : {});
    };

    return {
      node,
      api,
      auth,
      record: r,
      usdc: deployed.usdc,
      programFactory: deployed.programFactory,
      c,
      who,
      call,
      /** Calls the route and returns its validated success data (see {@link expectOk}). */
      ok: async <N extends RouteName>(name: N, req: Req = {}): Promise<Data<N>> =>
        expectOk(name, await call(name, req)),
      /** Signs the API's unsigned transaction as `wallet`, broadcasts it and waits. */
      send: (wallet: Wallet, data: { tx: string }) => signAndSend(p, wallet, data),
      /**
       * Gives `to` SP: the brand wallet mints it against fresh USDC and transfers it (setup
       * only, straight through ethers; the routes under test are called through the API).
       */
      async giveSp(to: string, sp: bigint) {
        const brand = who.brand;
        if (!(await c.factory.isMintWhitelisted(brand.address)))
          await (await c.factory.connect(brand).addToMintWhitelist(brand.address)).wait();
        for (const a of [brand.address, to])
          if (!(await c.points.isTransferWhitelisted(a)))
            await (await c.points.connect(brand).addToTransferWhitelist(a)).wait();
        const usdcAmount = sp / 10n ** 12n;
        await (await c.usdc.connect(brand).mint(brand.address, usdcAmount)).wait();
        await (await c.usdc.connect(brand).approve(r.factory, usdcAmount)).wait();
        await (await c.factory.connect(brand).mint(deployed.usdc, usdcAmount, brand.address)).wait();
        if (to !== brand.address) await (await c.points.connect(brand).transfer(to, sp)).wait();
      },
      async stop() {
        await api.close();
        await node.stop();
      },
    };
  } catch (e) {
    await api.close();
    await node.stop();
    throw e;
  }
}
export type E2E = Awaited<ReturnType<typeof setupE2E>>;

/** 200 (or the route's status) with `{success:true,data}` that the route's response schema accepts. */
export function expectOk<N extends RouteName>(name: N, res: Res): Data<N> {
  assert.equal(res.status, routes[name].status ?? 200, JSON.stringify(res.body));
  assert.equal(res.body.success, true);
  const parsed = routes[name].response.safeParse(res.body);
  assert.ok(parsed.success, `${name} response does not match its schema: ${JSON.stringify(parsed.error?.issues)}`);
  return parsed.data!.data as Data<N>;
}

/** An error envelope with this status and code; returns `error.details`. */
export function expectError(res: Res, status: number, code: string): any {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.ok(ErrorEnvelope.safeParse(res.body).success, `not the error envelope: ${JSON.stringify(res.body)}`);
  assert.equal(res.body.error.code, code);
  return res.body.error.details;
}

/** 403 MISSING_ROLE naming exactly this contract, role and account. */
export function expectMissingRole(res: Res, expected: { contract: string; role: string; account: string }) {
  const d = expectError(res, 403, "MISSING_ROLE");
  assert.deepEqual({ contract: d.contract, role: d.role, account: d.account }, expected);
  return d;
}

/** 422 WOULD_REVERT with exactly this decoded error (name, named args, declaring contract). */
export function expectRevert(res: Res, contract: string, name: string, args: Record<string, string | boolean>) {
  const d = expectError(res, 422, "WOULD_REVERT");
  assert.deepEqual({ contract: d.contract, name: d.name, args: d.args }, { contract, name, args });
  return d;
}

/**
 * 422 WOULD_REVERT because an ERC-20 allowance is missing: the approval the caller must sign
 * first is in `details.prerequisite`, itself a valid unsigned transaction from `owner`.
 */
export function expectPrerequisite(
  res: Res,
  want: { token: string; owner: string; spender: string; allowance: bigint; needed: bigint; contract: string },
): UnsignedTx {
  const d = expectError(res, 422, "WOULD_REVERT");
  assert.equal(d.name, "ERC20InsufficientAllowance");
  assert.equal(d.contract, want.contract);
  assert.deepEqual(d.args, {
    spender: want.spender,
    allowance: want.allowance.toString(),
    needed: want.needed.toString(),
  });
  const approval = UnsignedTx.parse(d.prerequisite);
  assert.equal(approval.to, want.token);
  assert.equal(approval.from, want.owner);
  assert.deepEqual(approval.call, {
    contract: want.contract,
    function: "approve",
    args: [want.spender, want.needed.toString()],
  });
  return approval;
}

/**
 * {@link expectPrerequisite} for SP that `owner` never approved to `spender`: checks the offered
 * approval of `needed`, then signs and sends it.
 */
export async function approveSpFirst(e: E2E, res: Res, owner: Wallet, spender: string, needed: bigint) {
  const approval = expectPrerequisite(res, {
    contract: "points",
    token: e.record.points,
    owner: owner.address,
    spender,
    allowance: 0n,
    needed,
  });
  await e.send(owner, approval);
}

/** Moves the node's clock forward and mines a block. */
export async function increaseTime(e: E2E, seconds: number) {
  await e.node.increaseTime(seconds);
  await e.node.mine();
}

export const SP = (n: number | bigint) => BigInt(n) * 10n ** 18n;
export const USDC = (n: number | bigint) => BigInt(n) * 10n ** 6n;
