import { sdk } from "./client";

/** Onboarding through the SDK's namespace (deploy takes the Idempotency-Key as an option); wizard pages only. */
export const onboardingApi = sdk().onboarding;
