import type { PageProblem } from "./browser.js";

// Status errors the page reports as console errors although the console handles them: the
// signed-out /me, and the 422 answers that carry a prerequisite approval or a decoded revert.
export const UNKNOWN_CAMPAIGN = `0x${"0".repeat(63)}1`;
const HANDLED: { status: number; path: string | RegExp }[] = [
  { status: 401, path: "/console/v1/me" },
  // The not-found page of a campaign the vault does not have.
  { status: 404, path: `/studio/sdk/v1/psp/campaign/${UNKNOWN_CAMPAIGN}` },
  { status: 422, path: "/api/v1/build/mint" },
  { status: 422, path: "/studio/sdk/v1/tx/psp/create-campaign" },
  { status: 422, path: "/studio/sdk/v1/tx/psp/mint" },
  { status: 422, path: "/studio/sdk/v1/tx/psp/fund-campaign" },
  // The SP approval a redemption request asks for first.
  {
    status: 422,
    path: /^\/api\/v1\/build\/evm\/chain\/\d+\/factory\/0x[0-9a-fA-F]{40}\/asset\/0x[0-9a-fA-F]{40}\/redeem\/create$/,
  },
];
export const handled = (p: PageProblem) =>
  p.kind === "console" &&
  HANDLED.some((h) => {
    const path = new URL(p.url ?? "", "http://x").pathname;
    return (
      p.text.includes(`status of ${h.status}`) && (typeof h.path === "string" ? path === h.path : h.path.test(path))
    );
  });
