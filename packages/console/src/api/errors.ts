import { PointsApiError } from "@points/sdk";
import { revertSentence } from "./revertSentences";

export interface Described {
  title: string;
  detail?: string;
  /** Field messages of an INVALID_INPUT answer. */
  fields?: { field: string; message: string }[];
  /** The raw error (decoded revert with its arguments), shown behind a disclosure. */
  raw?: string;
}

const fmtArg = (a: unknown) => (typeof a === "string" ? a : JSON.stringify(a));

/** A failure as a person should read it: the API's decoded error, never a stack. */
export function describeError(e: unknown): Described {
  if (e instanceof PointsApiError) {
    const d = (e.details ?? {}) as Record<string, any>;
    switch (e.code) {
      case "WOULD_REVERT":
        if (d.name) {
          // The API names each argument: {minter: "0x…", limit: "…"}.
          const args = Array.isArray(d.args)
            ? d.args.map(fmtArg).join(", ")
            : d.args && typeof d.args === "object"
              ? Object.entries(d.args as Record<string, unknown>)
                  .map(([k, v]) => `${k}: ${fmtArg(v)}`)
                  .join(", ")
              : "";
          const raw = `${d.name}(${args})`;
          const sentence = revertSentence(d.name, d.args);
          return sentence
            ? { title: "The transaction would fail", detail: sentence, raw }
            : { title: raw, detail: e.message };
        }
        return { title: "The transaction would revert", detail: e.message };
      case "MISSING_ROLE":
        return {
          title: `Missing ${d.role ?? "role"}`,
          detail: d.account ? `${d.account} does not hold ${d.role} on ${d.contract}.` : e.message,
        };
      case "INVALID_INPUT":
        return { title: "Some input is not valid", detail: e.message, fields: Array.isArray(d.issues) ? d.issues : [] };
      case "UNAUTHORIZED":
        return { title: "Not signed in or not allowed", detail: e.message };
      case "FORBIDDEN":
        if (d.reason === "approval")
          return {
            title: "Your account is not approved to deploy yet",
            detail:
              "The operator of this service must approve your account before it can deploy. Ask them, then try again.",
          };
        if (d.reason === "wallet")
          return {
            title: "Wallet not proven",
            detail:
              "The admin wallet must sign a Sign-In with Ethereum message in this session before it can deploy. Connect it and sign, then deploy again.",
          };
        if (d.reason === "siwe") return { title: "Wallet not proven", detail: e.message };
        return { title: "Not allowed", detail: e.message };
      case "RATE_LIMITED":
        if (d.reason === "quota")
          return {
            title: "Deploy quota reached",
            detail: `Your account may start ${d.limit ?? "a few"} deploys per 24 hours. Try again later.`,
          };
        return { title: "Too many attempts", detail: e.message };
      case "TX_REVERTED":
        return { title: "The transaction was mined but failed", detail: e.message };
      case "WRONG_SIGNER":
        return { title: "The wallet account does not match", detail: e.message };
      case "NETWORK":
        return { title: "The API could not be reached", detail: e.message };
      default:
        return { title: e.code, detail: e.message };
    }
  }
  // ethers' ACTION_REJECTED, or the wallet's own EIP-1193 code 4001 (checked by code: no ethers import here).
  const code = (e as { code?: unknown } | null)?.code;
  if (code === "ACTION_REJECTED" || code === 4001) {
    return { title: "Rejected in the wallet", detail: "Nothing was signed." };
  }
  const msg = e instanceof Error ? e.message : String(e);
  // ethers messages carry a JSON dump after the first parenthesis; the first clause is the reason.
  return { title: "Something went wrong", detail: msg.split(" (")[0].slice(0, 300) };
}
