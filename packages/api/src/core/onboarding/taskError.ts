import { isDeployerError } from "@points/deployer";
import type { TaskError, TaskStageName } from "@points/schema";
import { ApiError } from "../errors.js";
import { EngineError } from "../engine/errors.js";
import { SignerError } from "@points/signers";

export type { TaskError };

/** A task's failure with the stage it happened in; the worker stores its `taskError`. */
export class TaskFailure extends Error {
  constructor(
    readonly taskError: TaskError,
    cause: unknown,
  ) {
    super(taskError.stage ? `${taskError.stage} failed: ${taskError.message}` : taskError.message, { cause });
    this.name = "TaskFailure";
  }
}

/** The stable code of a failure: the deployer's or the API's own, INTERNAL for anything else. */
export function codeOf(e: unknown): string {
  if (isDeployerError(e) || e instanceof ApiError || e instanceof EngineError || e instanceof SignerError)
    return e.code;
  return "INTERNAL";
}

export function taskFailure(stage: TaskStageName | null, e: unknown): TaskFailure {
  const message = e instanceof Error ? e.message : String(e);
  return new TaskFailure({ stage, code: codeOf(e), message }, e);
}

/** What the task records for any error a runner threw. */
export const taskErrorOf = (e: unknown): TaskError =>
  e instanceof TaskFailure ? e.taskError : taskFailure(null, e).taskError;
