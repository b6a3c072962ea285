import { z } from "zod";
import type { NewProgram } from "../core/registry/programs.js";

const Address = z.string().regex(/^0x[0-9a-fA-F]{40}$/);

/** A program record as the deployer writes it (flat, or with its proxies under `addresses`). */
const Manifest = z.object({
  chainId: z.union([z.string(), z.number()]).transform(String),
  brand: z.string().regex(/^[a-z0-9]{1,32}$/),
  addresses: z
    .object({
      factory: Address,
      points: Address,
      collateralVault: Address,
      pspVault: Address,
      oracle: Address.nullish(),
    })
    .optional(),
  factory: Address.optional(),
  points: Address.optional(),
  collateralVault: Address.optional(),
  pspVault: Address.optional(),
  oracle: Address.nullish(),
  programFactory: Address.nullish(),
  deployTx: z.string().nullish(),
  blockNumber: z.number().int().nullish(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});

export function programFromManifest(json: unknown): NewProgram {
  const m = Manifest.parse(json);
  const a = m.addresses ?? m;
  if (!a.factory || !a.points || !a.collateralVault || !a.pspVault) {
    throw new Error("manifest lacks factory, points, collateralVault or pspVault");
  }
  return {
    chainId: m.chainId,
    brand: m.brand,
    factory: a.factory,
    points: a.points,
    collateralVault: a.collateralVault,
    pspVault: a.pspVault,
    oracle: a.oracle ?? null,
    programFactory: m.programFactory ?? null,
    deployTx: m.deployTx ?? null,
    blockNumber: m.blockNumber ?? null,
    metadata: m.metadata,
  };
}
