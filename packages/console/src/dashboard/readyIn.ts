import { durationWords } from "../components/format/duration";

/**
 * A pending redemption's readyAt in words: "ready in 52 min (14:05)", local time of day. The
 * time is the request's own (the ledger takes it from the chain), so a later delay change
 * does not move it.
 */
export function readyIn(readyAtIso: string, nowMs: number): string {
  const at = new Date(readyAtIso);
  const left = at.getTime() - nowMs;
  if (left <= 0) return "ready to finalize";
  const hhmm = `${String(at.getHours()).padStart(2, "0")}:${String(at.getMinutes()).padStart(2, "0")}`;
  const minutes = Math.ceil(left / 60_000);
  // Beyond a day the time of day alone would be ambiguous: add the date.
  const when = minutes < 24 * 60 ? hhmm : `${at.toISOString().slice(0, 10)} ${hhmm}`;
  return `ready in ${durationWords(minutes * 60)} (${when})`;
}
