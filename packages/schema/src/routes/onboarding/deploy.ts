import { z } from "zod";
import { DeskPolicy } from "../desk/common.js";
import { Address, CONFIGURED_CHAINS, TrimmedText } from "../../primitives.js";
import { routeFamily } from "../../route.js";
import { success } from "../../envelope.js";

const Text = (max: number) => TrimmedText(max, true);
const Url = z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).max(2048);

/** POST /api/v1/client-onboarding/deploy body (docs/deployment.md#onboarding-over-http). */
export const OnboardingRequest = z.strictObject({
  brand: z
    .string()
    .regex(/^[a-z0-9]{1,32}$/, "must be 1-32 lowercase letters and digits")
    .meta({ description: "Lowercase alphanumeric, unique per chain", example: "acme" }),
  organization: z.strictObject({ name: Text(200), website: Url, description: Text(2000) }),
  chainId: z
    .number()
    .int()
    .positive()
    .max(Number.MAX_SAFE_INTEGER)
    .meta({ description: "One of the server's configured chains", example: 31337, [CONFIGURED_CHAINS]: true }),
  token: z.strictObject({
    name: Text(64),
    symbol: z.string().regex(/^[A-Za-z0-9]{1,11}$/, "must be 1-11 letters or digits"),
    description: Text(2000),
    logoUrl: Url,
    websiteUrl: Url,
  }),
  deployer: Address.meta({ description: "The brand's wallet: it receives every admin role" }),
  collateral: z.strictObject({ asset: Address }).optional().meta({
    description:
      "Existing ERC-20 collateral; on a chain that is not a dev chain it must be on the operator's list for the chain (GET /api/v1/operator/chains/:chainId/assets), else 400; omitted on a dev chain: a mock 6-decimal stablecoin",
  }),
  oracle: z
    .strictObject({
      feed: Address.meta({
        description: "On a chain that is not a dev chain, a feed on the operator's list for the chain, else 400",
      }),
      heartbeat: z
        .number()
        .int()
        .positive()
        .max(30 * 86_400),
      lowerPeg: z.string().regex(/^[1-9][0-9]{0,36}$/, "must be an 18-decimal price as a decimal string"),
      upperPeg: z.string().regex(/^[1-9][0-9]{0,36}$/, "must be an 18-decimal price as a decimal string"),
    })
    .optional(),
  deskPolicy: DeskPolicy.optional().meta({
    description:
      "The program's redemption desk from birth (docs/deployment.md#redemption-desk). off: the executor is left without EXECUTOR_ROLE on the Factory (a MANAGER_ROLE holder may grant it later, PUT /api/v1/roles/grant); automatic or manual: EXECUTOR_ROLE is granted and the desk starts with that policy; omitted: EXECUTOR_ROLE is granted and the desk stays off until a manager sets a policy",
  }),
});
export type OnboardingRequest = z.infer<typeof OnboardingRequest>;

export const ProgramAddresses = z.object({
  points: Address,
  factory: Address,
  collateralVault: Address,
  pspVault: Address,
  oracle: Address.nullable(),
});

export const onboardingRoute = routeFamily({ tag: "onboarding", auth: "key" });

export const onboardingDeploy = onboardingRoute({
  method: "post",
  path: "/api/v1/client-onboarding/deploy",
  summary: "Queue the deployment of a branded program; honours Idempotency-Key",
  status: 202,
  body: OnboardingRequest,
  errors: ["CONFLICT"],
  response: success(
    z.object({
      taskId: z.string(),
      status: z.enum(["awaiting_approval", "queued", "running", "succeeded", "failed"]),
      predicted: ProgramAddresses.nullable(),
    }),
  ),
});
