import type { ResponseData } from "@points/sdk";

/** A program's source verification, as the API reports it (docs/deployment.md#source-verification). */
export type VerificationView = ResponseData<"getFactoryVerification">;

const EXPLORER: Record<string, string> = { etherscan: "the explorer", sourcify: "Sourcify" };

/** One contract's verification in words: a "Verified" link per explorer, or why it is not (yet). */
export function VerificationState({ view, contract }: { view: VerificationView | null | undefined; contract: string }) {
  if (!view) return null;
  const rows = view.contracts.filter((c) => c.contract === contract);
  if (rows.length === 0) {
    return <span className="muted">Source not verified: {view.message ?? "not queued"}</span>;
  }
  return (
    <span className="stack-inline">
      {rows.map((r) => {
        const where = EXPLORER[r.explorer ?? ""] ?? "no explorer";
        if (r.status === "verified" && r.url) {
          return (
            <a key={`${r.explorer}`} href={r.url} target="_blank" rel="noopener noreferrer">
              Verified source on {where}
            </a>
          );
        }
        const text =
          r.status === "pending"
            ? `Verification on ${where} pending${r.reason ? `: ${r.reason}` : ""}`
            : r.status === "failed"
              ? `Verification on ${where} failed: ${r.reason ?? "no reason given"}`
              : `Source not verified: ${r.reason ?? view.message ?? "skipped"}`;
        return (
          <span key={`${r.explorer}`} className={r.status === "failed" ? "error-text" : "muted"}>
            {text}
          </span>
        );
      })}
    </span>
  );
}

/** The release's contracts (implementations and ProgramFactory): how many of them are verified. */
export function ReleaseVerification({ view }: { view: VerificationView | null | undefined }) {
  if (!view) return null;
  const release = view.contracts.filter((c) => c.contract.startsWith("release/"));
  if (release.length === 0) return null;
  const verified = release.filter((c) => c.status === "verified").length;
  return (
    <p className="muted" data-testid="release-verification">
      Release contracts (implementations and ProgramFactory): {verified} of {release.length} verified
      {view.status === "pending" ? ", the rest pending" : ""}
      {view.status === "failed" ? `; ${view.message}` : ""}.
    </p>
  );
}
