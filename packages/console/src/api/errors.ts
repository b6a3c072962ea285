import { PointsApiError, type PointsErrorCode } from "@points/sdk";
import { revertSentence } from "./revertSentences";
import { durationWords } from "../components/format/duration";

export interface Described {
  title: string;
  detail?: string;
  /** Field messages of an INVALID_INPUT answer, the field named in words ("Account"). */
  fields?: { field: string; message: string }[];
  /** The raw error (code, decoded revert with its arguments, message), shown behind a disclosure. */
  raw?: string;
}

/**
 * A sentence for every code an API answer or the SDK can carry (docs/errors.md, "The API
 * envelope"); a test checks every code of the schema has one. Codes with a more precise
 * sentence from their details are handled in describeError first.
 */
export const CODE_SENTENCES: Record<PointsErrorCode, string> = {
  INVALID_INPUT: "Some input is not valid",
  INVALID_ROWS: "Some rows of the file are not valid; nothing was sent",
  UNAUTHORIZED: "Not signed in or not allowed",
  MISSING_ROLE: "Your account lacks a role this needs",
  FORBIDDEN: "Not allowed",
  DEV_CHAIN_ONLY: "This only works on a local development chain",
  NOT_FOUND: "Not found: it does not exist, or not in this program",
  METHOD_NOT_ALLOWED: "The console asked the API for something it does not offer; reload the page",
  CONFLICT: "This exists already, or was done already",
  PAYLOAD_TOO_LARGE: "This is too large to send; send less at once",
  WOULD_REVERT: "The transaction would fail",
  RATE_LIMITED: "Too many attempts; wait a minute and try again",
  INTERNAL: "The API failed unexpectedly; try again, and report it if it persists",
  CHAIN_UNAVAILABLE: "The blockchain node did not answer; try again shortly",
  CHAIN_MISMATCH: "The blockchain node serves another network; the operator must fix its address",
  NOT_READY: "The API is starting or not ready; try again shortly",
  NETWORK: "The API could not be reached",
  WRONG_SIGNER: "The wallet account does not match",
  TX_REVERTED: "The transaction was mined but failed",
  NONCE_CONFLICT: "Another transaction from this account got in first; try again",
  BROADCAST_FAILED: "The transaction could not be sent to the network; try again",
  ABORTED: "Cancelled",
};

/** A field path of the API ("body.input.account") in words ("Account"). */
export function fieldLabel(path: string): string {
  const parts = path.split(".").filter((p) => !["body", "input", "query", "params", "path"].includes(p));
  const words = parts
    .map((p) => (/^\d+$/.test(p) ? `#${Number(p) + 1}` : p.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase()))
    .join(" ");
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : "Input";
}

/** A validation message in plain words: "must be an address: 0x…" as "not a valid address (0x…)". */
const fieldMessage = (m: string) => {
  const a = /^must be an? ([^:]+?)(?:: (.+))?$/.exec(m);
  const s = a ? `not a valid ${a[1]}${a[2] ? ` (${a[2]})` : ""}` : m.replace(/^invalid\s+/i, "not a valid ");
  return s ? s.charAt(0).toLowerCase() + s.slice(1) : s;
};

const fmtArg = (a: unknown) => (typeof a === "string" ? a : JSON.stringify(a));

function rawOf(e: PointsApiError, d: Record<string, any>): string {
  if (e.code === "WOULD_REVERT" || (e.code === "NOT_FOUND" && d.name)) {
    // The API names each argument: {minter: "0x…", limit: "…"}.
    const args = Array.isArray(d.args)
      ? d.args.map(fmtArg).join(", ")
      : d.args && typeof d.args === "object"
        ? Object.entries(d.args as Record<string, unknown>)
            .map(([k, v]) => `${k}: ${fmtArg(v)}`)
            .join(", ")
        : "";
    if (d.name) return `${d.name}(${args})`;
  }
  const details = e.details === undefined ? "" : ` ${JSON.stringify(e.details)}`;
  return `${e.code}: ${e.message}${details}`;
}

/**
 * A failure as a person should read it: a sentence first, the raw error behind a disclosure.
 * `tokenSymbol`: the program token's symbol for amounts in the sentence (none while not known).
 */
export function describeError(e: unknown, tokenSymbol: string | null = null): Described {
  if (e instanceof PointsApiError) {
    const d = (e.details ?? {}) as Record<string, any>;
    const raw = rawOf(e, d);
    const plain = CODE_SENTENCES[e.code] ?? "Something went wrong";
    switch (e.code) {
      case "WOULD_REVERT":
      case "NOT_FOUND": {
        const sentence = d.name ? revertSentence(d.name, d.args, d.contract, tokenSymbol) : undefined;
        if (sentence) return { title: plain, detail: sentence, raw };
        return { title: plain, detail: e.code === "NOT_FOUND" ? e.message : undefined, raw };
      }
      case "MISSING_ROLE":
        return {
          title: `Missing ${d.role ?? "role"}`,
          detail: d.account
            ? `${d.account} does not hold ${d.role} on ${d.contract}. Have an admin grant it on the Roles page, or use an account that holds it.`
            : undefined,
          raw,
        };
      case "INVALID_INPUT": {
        const issues = Array.isArray(d.issues) ? (d.issues as { field: string; message: string }[]) : [];
        return {
          title: plain,
          fields: issues.map((i) => ({ field: fieldLabel(i.field), message: fieldMessage(i.message) })),
          raw,
        };
      }
      case "FORBIDDEN":
        if (d.reason === "approval")
          return {
            title: "Your account is not approved to deploy yet",
            detail:
              "The operator of this service must approve your account before it can deploy. Ask them, then try again.",
            raw,
          };
        if (d.reason === "siwe") return { title: "Wallet not proven", detail: e.message, raw };
        if (d.reason === "wallet")
          return {
            title: "Wallet not proven",
            detail:
              "The admin wallet must sign a Sign-In with Ethereum message in this session before it can deploy. Connect it and sign, then deploy again.",
            raw,
          };
        return { title: plain, detail: e.message, raw };
      case "RATE_LIMITED":
        if (d.reason === "quota")
          return {
            title: "Deploy quota reached",
            detail: `Your account may start ${d.limit ?? "a few"} deploys per 24 hours. Try again later.`,
            raw,
          };
        if (typeof d.retryAfterSeconds === "number")
          return { title: plain, detail: `Wait ${durationWords(d.retryAfterSeconds)}, then try again.`, raw };
        return { title: plain, detail: e.message, raw };
      case "WRONG_SIGNER":
        return d.expected
          ? { title: plain, detail: `The wallet signs as ${d.actual}; this needs ${d.expected}. Switch accounts.`, raw }
          : { title: plain, detail: e.message, raw };
      default:
        // The API's message is written for people (docs/errors.md); it adds the specifics.
        return { title: plain, detail: e.message, raw };
    }
  }
  // ethers' ACTION_REJECTED, or the wallet's own EIP-1193 code 4001 (checked by code: no ethers import here).
  const code = (e as { code?: unknown } | null)?.code;
  if (code === "ACTION_REJECTED" || code === 4001) {
    return { title: "Rejected in the wallet", detail: "Nothing was signed." };
  }
  const msg = e instanceof Error ? e.message : String(e);
  // ethers messages carry a JSON dump after the first parenthesis; the first clause is the reason.
  const dump = msg.indexOf(" (");
  const reason = dump < 0 ? msg : msg.slice(0, dump);
  return { title: "Something went wrong", detail: reason.slice(0, 300), raw: msg.slice(0, 2000) };
}
