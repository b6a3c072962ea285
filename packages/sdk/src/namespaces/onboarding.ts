import type { Core } from "./core.js";
import type { Body, Params } from "../types.js";

/** Deploy a branded program as a task, and follow it. */
export function onboardingNamespace(core: Core) {
  return {
    /**
     * Queues the deployment (202). With an idempotency key, the same key and body return the
     * same task; the same key with another body is CONFLICT.
     */
    deploy: (body: Body<"onboardingDeploy">, opts: { idempotencyKey?: string } = {}) =>
      core.request("onboardingDeploy", {
        body,
        headers: opts.idempotencyKey ? { "idempotency-key": opts.idempotencyKey } : undefined,
      }),
    /** A task's status and persisted stages. */
    task: (taskId: Params<"onboardingTask">["taskId"]) => core.request("onboardingTask", { params: { taskId } }),
    /** The caller's tasks, newest first. */
    tasks: (opts: { chainId?: string } = {}) => core.request("onboardingTasks", { query: opts }),
    /** Queues a failed task again; it resumes from the chain. */
    retry: (taskId: Params<"onboardingRetry">["taskId"]) => core.request("onboardingRetry", { params: { taskId } }),
    /** Cancels a failed task (or one awaiting approval): it is deleted and its brand released. */
    cancel: (taskId: Params<"onboardingCancel">["taskId"]) => core.request("onboardingCancel", { params: { taskId } }),
    /** Operator (an admin-scoped key): lets a deploy awaiting approval run. */
    approve: (taskId: Params<"operatorApproveTask">["taskId"]) =>
      core.request("operatorApproveTask", { params: { taskId } }),
    /** Operator (admin key): the collateral assets and oracle feeds deploys may name on a chain. */
    assets: (chainId: Params<"operatorAssetsList">["chainId"]) =>
      core.request("operatorAssetsList", { params: { chainId } }),
    /** Operator (admin key): lets deploys on the chain name this asset or feed (idempotent). */
    addAsset: (params: Params<"operatorAssetAdd">, label: Body<"operatorAssetAdd">["label"]) =>
      core.request("operatorAssetAdd", { params, body: { label } }),
    /** Operator (admin key): takes an asset or feed off the chain's list (404 when not listed). */
    removeAsset: (params: Params<"operatorAssetRemove">) => core.request("operatorAssetRemove", { params }),
  };
}
