/**
 * Characters that make text lie about itself: C0/C1 controls, bidi overrides and isolates, and
 * zero-width characters. Labels, metadata and token names come from strangers' transactions.
 */
const HIDDEN = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;

/** `text` with every hidden character written as a visible \u escape. */
export function escapeHidden(text: string): string {
  return text.replace(HIDDEN, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
