import type { RouteBody, RouteData, RouteParams, RouteQuery, Routes } from "@points/schema";
import { fetchRoute, type RequestInput, type ResponseData, type RouteEntry, type RouteInput } from "@points/sdk";
import { API_BASE, withCredentials } from "./transport";

// The console's own routes (/console/v1) are not the SDK's (integrators never call them): they
// go through the SDK's transport by the schema's method and path, typed by the same schemas.
type ConsoleRoute = Extract<keyof Routes, `console${string}`>;

/**
 * Method and path of each console route. Not the schema's `routes` object: that would put every
 * zod schema of the API into the sign-in page's JavaScript. test/consoleRoutes.test.ts checks
 * this table against the schema, so it cannot drift.
 */
export const CONSOLE_ROUTES: Record<ConsoleRoute, RouteEntry> = {
  consoleRequestCode: { method: "post", path: "/console/v1/auth/request-code" },
  consoleVerify: { method: "post", path: "/console/v1/auth/verify" },
  consoleLogout: { method: "post", path: "/console/v1/auth/logout" },
  consoleMe: { method: "get", path: "/console/v1/me" },
  consoleWizardSave: { method: "put", path: "/console/v1/wizard" },
  consoleWizardRestart: { method: "post", path: "/console/v1/wizard/restart" },
  consoleChains: { method: "get", path: "/console/v1/chains" },
  consoleBrandAvailable: { method: "get", path: "/console/v1/brands/:brand/available" },
  consoleDevMailbox: { method: "get", path: "/console/v1/dev/mailbox" },
  consoleWalletNonce: { method: "post", path: "/console/v1/wallet/nonce" },
  consoleWalletProve: { method: "post", path: "/console/v1/wallet/prove" },
};
const options = { baseUrl: API_BASE, fetch: withCredentials };
const call = <N extends ConsoleRoute>(
  name: N,
  input?: { body?: RouteBody<Routes[N]>; params?: RouteParams<Routes[N]>; query?: RouteQuery<Routes[N]> },
): Promise<RouteData<Routes[N]>> =>
  fetchRoute(options, CONSOLE_ROUTES[name], input as RouteInput | undefined) as Promise<RouteData<Routes[N]>>;

export type Me = RouteData<Routes["consoleMe"]>;
export type Wizard = RouteData<Routes["consoleWizardSave"]>;
export type WizardPatch = RouteBody<Routes["consoleWizardSave"]>;
export type Organization = { name: string; website: string; description: string };
export type TokenConfig = { name: string; symbol: string; description: string; logoUrl: string; websiteUrl: string };
export type ChainInfo = RouteData<Routes["consoleChains"]>[number];
export type BrandAvailability = RouteData<Routes["consoleBrandAvailable"]>;
export type TaskView = ResponseData<"onboardingTask">;
export type StageView = TaskView["stages"][number];
export type DeployRequest = RequestInput<"onboardingDeploy">["body"];

export const consoleApi = {
  requestCode: (email: string) => call("consoleRequestCode", { body: { email } }),
  verify: (email: string, code: string) => call("consoleVerify", { body: { email, code } }),
  logout: () => call("consoleLogout"),
  me: () => call("consoleMe"),
  saveWizard: (patch: WizardPatch) => call("consoleWizardSave", { body: patch }),
  restart: () => call("consoleWizardRestart"),
  chains: () => call("consoleChains"),
  walletNonce: () => call("consoleWalletNonce"),
  walletProve: (message: string, signature: string) => call("consoleWalletProve", { body: { message, signature } }),
  /** A brand is reserved per chain: the wizard asks about the chain it deploys to. */
  brandAvailable: (brand: string, chainId?: number | null) =>
    call("consoleBrandAvailable", { params: { brand }, query: chainId == null ? {} : { chainId: String(chainId) } }),
};
