import type { ProgramView } from "../api/programView";
import { addressName } from "../safe/decode";

/** A metadata key in words: "label" "Label", "campaignNote" "Campaign note", "start_date" "Start date". */
const keyWords = (key: string) => {
  const w = key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[_-]+/g, " ")
    .toLowerCase();
  return w.charAt(0).toUpperCase() + w.slice(1);
};

/**
 * Campaign metadata as labelled fields when it is a JSON object ({"label":"spring"} gives
 * Label: spring; a nested value stays JSON), else null and the console shows the text as it is.
 */
export function metadataFields(metadata: string): { label: string; value: string }[] | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(metadata);
  } catch {
    return null;
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return null;
  return Object.entries(parsed).map(([k, v]) => ({
    label: keyWords(k),
    value: typeof v === "string" ? v : JSON.stringify(v),
  }));
}

/** An account's known name: one of the program's contracts ("Factory"), or "Your wallet"; else null. */
export function accountName(program: ProgramView, connected: string | null, address: string): string | null {
  if (connected && connected.toLowerCase() === address.toLowerCase()) return "Your wallet";
  return addressName(program, address);
}
