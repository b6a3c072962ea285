import { z } from "zod";
import {
  Address,
  ConfiguredChainIdParam,
  ContractNameSchema,
  PathText,
  ProgramRef,
  RoleNameSchema,
  Uint,
  UintText,
} from "../primitives.js";
import { defineRoute, routeFamily } from "../route.js";
import { success } from "../envelope.js";
import { RedeemRequestView } from "./chainRedeem.js";

export const ProgramQuery = z.object({ program: ProgramRef });
const contractsRead = routeFamily({ method: "get", tag: "contracts", auth: "open" });
const programRead = routeFamily({ method: "get", tag: "read", auth: "open", query: ProgramQuery });

export const ProgramView = z
  .object({
    id: z.string(),
    chainId: z.string(),
    brand: z.string(),
    factory: Address,
    points: Address,
    collateralVault: Address,
    pspVault: Address,
    oracle: Address.nullable(),
    programFactory: Address.nullable(),
    deployTx: z.string().nullable(),
    blockNumber: z.number().int().nullable(),
    metadata: z.record(z.string(), z.unknown()).meta({
      description:
        "Public facts only: token (name, symbol, logo) and collateralAsset. The organization, deployer and onboarding task are the owner's: GET /api/v1/client-onboarding/tasks/{taskId} with the owner's key",
    }),
    explorer: z.record(z.string(), z.string()).nullable(),
    createdAt: z.string(),
  })
  .meta({ id: "Program" });

export const readBalance = programRead({
  path: "/api/v1/evm/balance/:address",
  summary: "SP balance of an address",
  params: z.object({ address: Address }),
  response: success(
    z.object({ address: Address, balance: UintText, decimals: z.literal(18), transferWhitelisted: z.boolean() }),
  ),
});

export const AssetView = z.object({
  asset: Address,
  vault: Address,
  decimals: z.number().int(),
  symbol: z.string().meta({ description: "The token's symbol; invalid UTF-8 and NUL read as U+FFFD" }),
  collateral: UintText.meta({ description: "Asset held by the vault, in the asset's units" }),
  pegged: z.boolean().nullable().meta({ description: "Oracle peg status; null without an oracle" }),
});

export const readFactoryState = programRead({
  path: "/api/v1/evm/factory/state",
  summary: "Factory state: basket mode, pause, fees, supply, collateral per asset",
  response: success(
    z.object({
      factory: Address,
      points: Address,
      oracle: Address.nullable(),
      paused: z.boolean(),
      pointsPaused: z.boolean(),
      basketMode: z.boolean(),
      basketModeForced: z.boolean(),
      mintFeeBps: z.number().int(),
      redeemFeeBps: z.number().int(),
      feeReceiver: Address,
      redeemDelay: z.number().int(),
      redeemRequestCount: UintText,
      totalSupply: UintText,
      transferRestricted: z.boolean(),
      assets: z.array(AssetView),
      blockNumber: z.number().int(),
    }),
  ),
});

export const readFactoryAssets = programRead({
  path: "/api/v1/evm/factory/assets",
  summary: "Registered collateral assets",
  response: success(z.array(z.object({ asset: Address, vault: Address }))),
});

export const readFactoryVault = programRead({
  path: "/api/v1/evm/factory/vault/:asset",
  summary: "CollateralVault of an asset",
  params: z.object({ asset: Address }),
  response: success(z.object({ asset: Address, vault: Address })),
});

export const readRedeemRequest = defineRoute({
  method: "get",
  path: "/api/v1/evm/factory/redeem/:requestId",
  summary: "Status of a redemption request on the default (or named) program",
  tag: "redeem",
  auth: "open",
  params: z.object({ requestId: Uint }),
  query: ProgramQuery,
  response: success(RedeemRequestView),
});

export const listFactories = contractsRead({
  path: "/api/v1/contracts/factories",
  summary: "Every deployed program (factory) the service knows",
  response: success(z.array(ProgramView)),
});

export const getFactory = contractsRead({
  path: "/api/v1/contracts/factories/:id",
  summary: "A program by id or Factory address",
  params: z.object({ id: PathText(100) }),
  response: success(ProgramView),
});

export const listChainContracts = contractsRead({
  path: "/api/v1/contracts/chain/:chainId",
  summary: "Programs on one chain",
  params: z.object({ chainId: ConfiguredChainIdParam }),
  response: success(z.object({ chainId: z.string(), programs: z.array(ProgramView) })),
});

export const checkRole = defineRoute({
  method: "get",
  path: "/api/v1/roles/check/:contract/:role/:address",
  summary: "Whether an address holds a role on a program contract",
  tag: "roles",
  auth: "open",
  params: z.object({ contract: ContractNameSchema, role: RoleNameSchema, address: Address }),
  query: ProgramQuery,
  response: success(
    z.object({
      contract: z.string(),
      contractAddress: Address,
      role: z.string(),
      address: Address,
      hasRole: z.boolean(),
    }),
  ),
});
