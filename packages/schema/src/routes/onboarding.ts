import { z } from "zod";
import { DeskPolicy } from "./desk/common.js";
import { Address, ChainIdParam, CONFIGURED_CHAINS, TrimmedText } from "../primitives.js";
import { defineRoute, routeFamily } from "../route.js";
import { success } from "../envelope.js";
import { SourceVerificationView } from "../sourceVerification.js";

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

export const TaskStageName = z.enum(["validate", "release", "deploy", "verify", "register"]);
export type TaskStageName = z.infer<typeof TaskStageName>;

/** Why a task failed: the stage (null when no stage had started), a stable code, the message. */
export const TaskError = z
  .object({
    stage: TaskStageName.nullable(),
    code: z.string().meta({ description: "The deployer's error code (e.g. INSUFFICIENT_FUNDS) or INTERNAL" }),
    message: z.string(),
  })
  .meta({ id: "OnboardingTaskError" });
export type TaskError = z.infer<typeof TaskError>;

const StageView = z.object({
  name: TaskStageName,
  status: z.enum(["pending", "running", "done", "failed", "skipped"]),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  transactions: z.array(z.object({ hash: z.string(), description: z.string(), explorerUrl: z.string().nullable() })),
  addresses: z.record(z.string(), z.string()),
  error: z.string().nullable(),
});

export const TaskView = z
  .object({
    taskId: z.string(),
    status: z.enum(["awaiting_approval", "queued", "running", "succeeded", "failed"]),
    brand: z.string(),
    chain: z.object({
      chainId: z.string(),
      name: z.string(),
      testnet: z.boolean(),
      explorerUrl: z.string().nullable(),
    }),
    predicted: ProgramAddresses.nullable().meta({ description: "Null until the chain has a release to predict from" }),
    stages: z.array(StageView),
    attempts: z.number().int(),
    error: TaskError.nullable(),
    waiting: z
      .object({ code: z.enum(["EXECUTOR_LOW_BALANCE"]), message: z.string() })
      .nullable()
      .meta({
        description:
          "Why a queued or running task waits: EXECUTOR_LOW_BALANCE while the chain's executor is below its balance threshold (it resumes once funded)",
      }),
    organization: OnboardingRequest.shape.organization,
    token: OnboardingRequest.shape.token,
    deployer: Address,
    program: z
      .object({
        id: z.string(),
        addresses: ProgramAddresses,
        explorer: z.record(z.string(), z.string()).nullable(),
        rolesAtBirth: z.record(z.string(), z.record(z.string(), z.array(z.string()))),
        verification: SourceVerificationView,
      })
      .nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "OnboardingTask" });

const TaskParams = z.object({ taskId: z.uuid("must be a task id (UUID)") });
const onboardingRoute = routeFamily({ tag: "onboarding", auth: "key" });

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

export const onboardingTask = onboardingRoute({
  method: "get",
  path: "/v1/client-onboarding/tasks/:taskId",
  summary: "Poll a deployment task: status and persisted stages",
  params: TaskParams,
  response: success(TaskView),
});

export const onboardingTaskApi = defineRoute({ ...onboardingTask, path: "/api/v1/client-onboarding/tasks/:taskId" });

export const onboardingTasks = onboardingRoute({
  method: "get",
  path: "/api/v1/client-onboarding/tasks",
  summary: "The caller's deployment tasks (newest first)",
  query: z.object({ chainId: ChainIdParam.optional() }),
  response: success(z.array(TaskView)),
});

export const onboardingRetry = onboardingRoute({
  method: "post",
  path: "/api/v1/client-onboarding/tasks/:taskId/retry",
  summary: "Retry a failed task; it resumes from the chain, it does not start over",
  status: 202,
  params: TaskParams,
  errors: ["CONFLICT"],
  response: success(TaskView),
});

export const operatorApproveTask = defineRoute({
  method: "post",
  path: "/api/v1/operator/onboarding/tasks/:taskId/approve",
  summary: "Operator: let a deploy awaiting approval (a chain not marked testnet) run",
  tag: "operator",
  auth: "key",
  params: TaskParams,
  errors: ["CONFLICT"],
  response: success(TaskView),
});

export const onboardingCancel = onboardingRoute({
  method: "post",
  path: "/api/v1/client-onboarding/tasks/:taskId/cancel",
  summary: "Cancel a failed task or one awaiting approval: it is deleted and its brand released",
  params: TaskParams,
  errors: ["CONFLICT"],
  response: success(z.object({ taskId: z.string(), brand: z.string(), released: z.literal(true) })),
});
