import { z } from "zod";
import { Address, ConfiguredChainIdParam, PathText } from "../../primitives.js";
import { routeFamily } from "../../route.js";
import { success } from "../../envelope.js";

const contractsRead = routeFamily({ method: "get", tag: "contracts", auth: "open" });

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
