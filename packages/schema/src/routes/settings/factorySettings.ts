import { z } from "zod";
import { Address } from "../../primitives.js";
import { routeFamily } from "../../route.js";
import { UnsignedTx } from "../../tx.js";
import { success } from "../../envelope.js";
import { buildBody } from "../build/common.js";

/**
 * The Factory's bounds, as FactoryBase.sol states them (`MAX_FEE_BPS`, `MAX_REDEEM_DELAY`): an
 * input outside them is 400 INVALID_INPUT here, never a revert. The API's tests read both
 * constants from a deployed Factory and compare.
 */
export const FACTORY_MAX_FEE_BPS = 1_000;
export const FACTORY_MAX_REDEEM_DELAY = 30 * 24 * 3600;

const ZERO_ADDRESS = /^0x0{40}$/;

const feeBps = (which: "mint" | "redeem") =>
  z
    .number()
    .int("must be a whole number of basis points")
    .min(0, "must not be negative")
    .max(FACTORY_MAX_FEE_BPS, `must be at most ${FACTORY_MAX_FEE_BPS} (10%), the Factory's MAX_FEE_BPS`)
    .meta({
      description: `The ${which} fee in basis points (1 bp = 0.01%): a whole number from 0 to ${FACTORY_MAX_FEE_BPS} (10%, the Factory's MAX_FEE_BPS)`,
      example: 25,
    });

export const RedeemDelaySeconds = z
  .number()
  .int("must be a whole number of seconds")
  .min(0, "must not be negative")
  .max(
    FACTORY_MAX_REDEEM_DELAY,
    `must be at most ${FACTORY_MAX_REDEEM_DELAY} seconds (30 days), the Factory's MAX_REDEEM_DELAY`,
  )
  .meta({
    description: `Seconds a redemption request waits before its requester may finalize it alone: a whole number from 0 to ${FACTORY_MAX_REDEEM_DELAY} (30 days, the Factory's MAX_REDEEM_DELAY). Requests made before the change keep their own ready time`,
    example: 3600,
  });

export const FeeReceiver = Address.refine((a) => !ZERO_ADDRESS.test(a), "must not be the zero address").meta({
  description:
    "The account that receives the mint and redeem fees (SP): an EVM address (all lower, all upper, or a valid EIP-55 checksum), not the zero address. While a fee is above 0 and Points transfers are restricted, it must be on the Points transfer allowlist (else 422 FeeReceiverNotWhitelisted)",
});

const tx = success(UnsignedTx);
const settingsRoute = routeFamily({ method: "put", tag: "settings", auth: "key", response: tx });

export const setRedeemDelay = settingsRoute({
  path: "/api/v1/settings/redeem-delay",
  summary: "Build Factory.setRedeemDelay(delay) for a MANAGER_ROLE holder (key)",
  body: buildBody({ delay: RedeemDelaySeconds }),
});

export const setFees = settingsRoute({
  path: "/api/v1/settings/fees",
  summary:
    "Build Factory.setFees(mintFeeBps, redeemFeeBps) for the Factory's admin, DEFAULT_ADMIN_ROLE (key); with a fee above 0 the fee receiver must be able to receive SP",
  body: buildBody({ mintFeeBps: feeBps("mint"), redeemFeeBps: feeBps("redeem") }),
});

export const setFeeReceiver = settingsRoute({
  path: "/api/v1/settings/fee-receiver",
  summary:
    "Build Factory.setFeeReceiver(feeReceiver) for the Factory's admin, DEFAULT_ADMIN_ROLE (key); with a fee above 0 it must be able to receive SP",
  body: buildBody({ feeReceiver: FeeReceiver }),
});
