import { z } from "zod";
import { Address } from "./primitives.js";

/** One verification state (docs/deployment.md#source-verification). */
export const VerificationStatus = z.enum(["pending", "verified", "failed", "skipped"]);
export type VerificationStatus = z.infer<typeof VerificationStatus>;

/**
 * A program's contracts on the chain's explorers: its proxies and its release's contracts.
 * Verification runs after the deploy and never blocks it.
 */
export const SourceVerificationView = z
  .object({
    status: VerificationStatus.meta({
      description:
        "verified: every contract on every explorer; pending: some wait (an explorer that did not answer is asked again later); failed: an explorer refused a source; skipped: the chain has no explorer configured",
    }),
    message: z.string().nullable().meta({ description: "Why, in words, when not verified" }),
    contracts: z.array(
      z.object({
        contract: z.string().meta({
          description:
            "points, factory, collateralVault, pspVault, oracle (the proxies); release/<Artifact> (the release)",
          example: "points",
        }),
        address: Address,
        explorer: z.enum(["etherscan", "sourcify"]).nullable().meta({ description: "Null when skipped" }),
        status: VerificationStatus,
        url: z.string().nullable().meta({ description: "Where people see the verified source" }),
        reason: z.string().nullable().meta({ description: "Why it failed, or why it is still pending" }),
        attempts: z.number().int(),
        nextAttemptAt: z.string().nullable().meta({ description: "When a pending verification is tried next" }),
      }),
    ),
  })
  .meta({
    id: "SourceVerification",
    description: "Source verification on the chain's explorers; it runs after the deploy and never blocks it",
  });
export type SourceVerificationView = z.infer<typeof SourceVerificationView>;
