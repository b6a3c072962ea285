import { PointsApiError } from "@points/sdk";
import { API_BASE, sdk, withCredentials } from "./client";

// The console routes are in @points/schema's route table and go through the SDK. The
// onboarding routes are not there yet (they land with the onboarding branch): until then a
// tiny typed wrapper speaks the same envelope; then they become `client.request(name, ...)`.

export interface Organization {
  name: string;
  website: string;
  description: string;
}
export interface TokenConfig {
  name: string;
  symbol: string;
  description: string;
  logoUrl: string;
  websiteUrl: string;
}
export interface Wizard {
  step: number;
  wallet: string | null;
  organization: Organization | null;
  chainId: number | null;
  token: TokenConfig | null;
  brand: string | null;
  taskId: string | null;
  programId: string | null;
}
export interface Me {
  email: string;
  wallet: string | null;
  wizard: Wizard;
}
export interface ChainInfo {
  chainId: number;
  name: string;
  testnet: boolean;
  explorerUrl: string | null;
  recommended?: boolean;
}
export interface BrandAvailability {
  brand: string;
  available: boolean;
  reason?: "invalid" | "program" | "task";
  message?: string;
}
export interface ProgramAddresses {
  points: string;
  factory: string;
  collateralVault: string;
  pspVault: string;
  oracle: string | null;
}
export type StageName = "validate" | "release" | "deploy" | "verify" | "register";
export type StageStatus = "pending" | "running" | "done" | "failed" | "skipped";
export interface StageView {
  name: StageName;
  status: StageStatus;
  startedAt: string | null;
  finishedAt: string | null;
  transactions: { hash: string; description: string; explorerUrl: string | null }[];
  addresses: Record<string, string>;
  error: string | null;
}
export type TaskStatus = "queued" | "running" | "succeeded" | "failed";
export interface TaskView {
  taskId: string;
  status: TaskStatus;
  brand: string;
  chain: { chainId: string; name: string; testnet: boolean; explorerUrl: string | null };
  predicted: ProgramAddresses | null;
  stages: StageView[];
  attempts: number;
  error: string | null;
  deployer: string;
  program: {
    id: string;
    addresses: ProgramAddresses;
    explorer: Record<string, string> | null;
    rolesAtBirth: Record<string, Record<string, string[]>>;
  } | null;
  createdAt: string;
  updatedAt: string;
}
export interface DeployRequest {
  brand: string;
  organization: Organization;
  chainId: number;
  token: TokenConfig;
  deployer: string;
  collateral?: { asset: string };
}

async function call<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
  let res: Response;
  try {
    res = await withCredentials(API_BASE + path, {
      method,
      headers: {
        accept: "application/json",
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (e) {
    throw new PointsApiError("NETWORK", `could not reach the API: ${(e as Error).message}`, { cause: e });
  }
  let envelope: any;
  try {
    envelope = await res.json();
  } catch {
    throw new PointsApiError("NETWORK", `the server answered HTTP ${res.status} without the API's envelope`, {
      status: res.status,
    });
  }
  if (envelope?.success === true) return envelope.data as T;
  const err = envelope?.error ?? {};
  throw new PointsApiError(err.code ?? "INTERNAL", err.message ?? `HTTP ${res.status}`, {
    status: res.status,
    details: err.details,
  });
}

const enc = encodeURIComponent;
const client = sdk();

/** The console's own routes (/console/v1), through the SDK's route table. */
export const consoleApi = {
  requestCode: (email: string) => client.request("consoleRequestCode", { body: { email } }),
  verify: (email: string, code: string) => client.request("consoleVerify", { body: { email, code } }),
  logout: () => client.request("consoleLogout"),
  me: () => client.request("consoleMe") as Promise<Me>,
  saveWizard: (patch: Partial<Wizard>) => client.request("consoleWizardSave", { body: patch }) as Promise<Wizard>,
  restart: () => client.request("consoleWizardRestart") as Promise<Wizard>,
  chains: (): Promise<ChainInfo[]> => client.request("consoleChains"),
  brandAvailable: (brand: string): Promise<BrandAvailability> =>
    client.request("consoleBrandAvailable", { params: { brand } }),
};

export const onboardingApi = {
  /** The idempotency key makes a repeated click or a retried request return the same task. */
  deploy: (req: DeployRequest, idempotencyKey: string) =>
    call<{ taskId: string; status: TaskStatus; predicted: ProgramAddresses | null }>(
      "POST",
      "/api/v1/client-onboarding/deploy",
      req,
      { "idempotency-key": idempotencyKey },
    ),
  task: (taskId: string) => call<TaskView>("GET", `/v1/client-onboarding/tasks/${enc(taskId)}`),
  retry: (taskId: string) => call<TaskView>("POST", `/api/v1/client-onboarding/tasks/${enc(taskId)}/retry`),
};
