import type { RequestInput, ResponseData } from "@points/sdk";
import { sdk } from "./client";

// The console's own routes (/console/v1) and the onboarding routes, through the SDK's route
// table (@points/schema) like every other call; the types come from the same schemas.

export type Me = ResponseData<"consoleMe">;
export type Wizard = ResponseData<"consoleWizardSave">;
export type WizardPatch = RequestInput<"consoleWizardSave">["body"];
export type Organization = { name: string; website: string; description: string };
export type TokenConfig = { name: string; symbol: string; description: string; logoUrl: string; websiteUrl: string };
export type ChainInfo = ResponseData<"consoleChains">[number];
export type BrandAvailability = ResponseData<"consoleBrandAvailable">;
export type TaskView = ResponseData<"onboardingTask">;
export type StageView = TaskView["stages"][number];
export type DeployRequest = RequestInput<"onboardingDeploy">["body"];

const client = sdk();

export const consoleApi = {
  requestCode: (email: string) => client.request("consoleRequestCode", { body: { email } }),
  verify: (email: string, code: string) => client.request("consoleVerify", { body: { email, code } }),
  logout: () => client.request("consoleLogout"),
  me: () => client.request("consoleMe"),
  saveWizard: (patch: WizardPatch) => client.request("consoleWizardSave", { body: patch }),
  restart: () => client.request("consoleWizardRestart"),
  chains: () => client.request("consoleChains"),
  walletNonce: () => client.request("consoleWalletNonce"),
  walletProve: (message: string, signature: string) =>
    client.request("consoleWalletProve", { body: { message, signature } }),
  /** A brand is reserved per chain: the wizard asks about the chain it deploys to. */
  brandAvailable: (brand: string, chainId?: number | null) =>
    client.request("consoleBrandAvailable", {
      params: { brand },
      query: chainId == null ? {} : { chainId: String(chainId) },
    }),
};

/** Onboarding through the SDK's namespace (deploy takes the Idempotency-Key as an option). */
export const onboardingApi = client.onboarding;
