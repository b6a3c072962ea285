import { z } from "zod";
import { Address, ChainIdParam } from "../../primitives.js";
import { defineRoute } from "../../route.js";
import { success } from "../../envelope.js";
import { SourceVerificationView } from "../../sourceVerification.js";
import { OnboardingRequest, onboardingRoute, ProgramAddresses } from "./deploy.js";

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
