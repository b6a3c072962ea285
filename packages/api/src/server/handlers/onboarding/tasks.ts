import type { routes } from "@points/schema";
import type { Handler } from "../../../core/context.js";
import { ownerOf, type Caller } from "../../../core/auth/caller.js";
import type { Ctx } from "../../../core/context.js";
import { ApiError } from "../../../core/errors.js";
import { taskView } from "../../../core/onboarding/view.js";
import { requireDeployApproval } from "../../../core/onboarding/permission.js";

/** A task its caller may see: tasks are scoped to the key (or session) that created them. */
async function ownedTask(ctx: Ctx, caller: Caller, taskId: string) {
  const task = await ctx.tasks.get(taskId);
  if (!task || task.owner !== (ownerOf(caller) ?? null))
    throw new ApiError("NOT_FOUND", `no deployment task ${taskId}`);
  return task;
}

export const onboardingTask: Handler<typeof routes.onboardingTask> = async ({ params, caller }, ctx) =>
  taskView(ctx, await ownedTask(ctx, caller, params.taskId));

export const onboardingTaskApi: Handler<typeof routes.onboardingTaskApi> = onboardingTask;

export const onboardingTasks: Handler<typeof routes.onboardingTasks> = async ({ query, caller }, ctx) => {
  const tasks = await ctx.tasks.list(ownerOf(caller) ?? null, query.chainId);
  return Promise.all(tasks.map((t) => taskView(ctx, t)));
};

/** A failed task is queued again; the deployer resumes from what the chain holds. */
export const onboardingRetry: Handler<typeof routes.onboardingRetry> = async ({ params, caller }, ctx) => {
  await requireDeployApproval(ctx, caller);
  await ownedTask(ctx, caller, params.taskId);
  const task = await ctx.tasks.retry(params.taskId);
  ctx.pokeWorker();
  return taskView(ctx, task);
};

/** The operator (an admin-scoped key) lets a deploy awaiting approval run. */
export const operatorApproveTask: Handler<typeof routes.operatorApproveTask> = async ({ params }, ctx) => {
  const task = await ctx.tasks.approve(params.taskId);
  ctx.pokeWorker();
  return taskView(ctx, task);
};

/** The owner gives up a task that will not run; its brand is free at once. */
export const onboardingCancel: Handler<typeof routes.onboardingCancel> = async ({ params, caller }, ctx) => {
  const task = await ownedTask(ctx, caller, params.taskId);
  const released = await ctx.tasks.releaseBrand(task.brand, { taskId: task.id });
  if (released.length === 0) {
    throw new ApiError(
      "CONFLICT",
      `task ${task.id} is ${task.status}: only a failed or unapproved task can be cancelled`,
    );
  }
  return { taskId: task.id, brand: task.brand, released: true as const };
};
