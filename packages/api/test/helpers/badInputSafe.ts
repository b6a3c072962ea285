import { SAFE_BATCH_MAX_ACTIONS } from "@points/schema";

/**
 * Bad-input samples of a Safe batch's `actions` (POST /api/v1/safe/batch): each action's body is
 * its route's own without signer and nonce.
 */
const ACTION_FROM = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const ACTION = { route: "pspPauseCampaign", body: { campaignId: "summer-2026" } };

export const VALID_SAFE_ACTIONS = [ACTION];

export const BAD_SAFE_ACTIONS = [
  { why: "actions not an array", value: ACTION },
  { why: "no actions", value: [] },
  { why: "an action of an unknown route", value: [{ ...ACTION, route: "safeBatch" }] },
  { why: "an action of a route with path parameters", value: [{ ...ACTION, route: "chainRedeemCreate" }] },
  { why: "an action without body", value: [{ route: ACTION.route }] },
  { why: "an action whose body is an array", value: [{ ...ACTION, body: [] }] },
  { why: "an action with an unknown field", value: [{ ...ACTION, extra: 1 }] },
  { why: "an action without its route's field", value: [{ ...ACTION, body: {} }] },
  { why: "an action with a bad field", value: [{ ...ACTION, body: { campaignId: "" } }] },
  { why: "an action naming its signer", value: [{ ...ACTION, body: { ...ACTION.body, from: ACTION_FROM } }] },
  { why: "an action with its own nonce", value: [{ ...ACTION, body: { ...ACTION.body, nonce: 0 } }] },
  {
    why: `${SAFE_BATCH_MAX_ACTIONS + 1} actions`,
    value: Array.from({ length: SAFE_BATCH_MAX_ACTIONS + 1 }, () => ACTION),
  },
];
