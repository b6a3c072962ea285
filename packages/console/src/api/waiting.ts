/** What the transaction engine reports while a chain's executor waits (task and desk views). */
export interface Waiting {
  code: "EXECUTOR_LOW_BALANCE";
  message: string;
}

const TITLE: Record<Waiting["code"], string> = {
  EXECUTOR_LOW_BALANCE: "Waiting for the executor to be funded",
};

const SENTENCE: Record<Waiting["code"], string> = {
  EXECUTOR_LOW_BALANCE:
    "The service's executor wallet on this chain holds less than its safety threshold, so nothing is sent. Nothing failed: work resumes by itself once the operator of this service funds it.",
};

/** The words a person reads for an engine status (never the bare code). */
export function describeWaiting(w: Waiting): { title: string; sentence: string } {
  return { title: TITLE[w.code] ?? "Waiting", sentence: SENTENCE[w.code] ?? w.message };
}
