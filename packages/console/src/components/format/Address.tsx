import { useState } from "react";

/** Rejects when the page has no clipboard (not a secure context) or the browser refuses it. */
export const copyText = (text: string): Promise<void> =>
  navigator.clipboard ? navigator.clipboard.writeText(text) : Promise.reject(new Error("No clipboard"));

export const shortAddress = (addr: string) => `${addr.slice(0, 6)}…${addr.slice(-4)}`;

/**
 * An address shortened (0x1234…abcd), the full one on hover and for screen readers, a copy
 * button, and an explorer link that opens with rel="noopener noreferrer" when the chain has one.
 */
export function Address({ address, explorerUrl }: { address: string; explorerUrl?: string | null }) {
  const [copied, setCopied] = useState<"Copied" | "Copy failed" | null>(null);
  const label = (
    <code className="addr-short" title={address}>
      <span aria-hidden="true">{shortAddress(address)}</span>
      <span className="sr-only">{address}</span>
    </code>
  );
  return (
    <span className="address">
      {explorerUrl ? (
        <a href={`${explorerUrl.replace(/\/$/, "")}/address/${address}`} target="_blank" rel="noopener noreferrer">
          {label}
        </a>
      ) : (
        label
      )}
      <button
        type="button"
        className="copy"
        aria-label={`Copy ${address}`}
        onClick={() => {
          copyText(address).then(
            () => setCopied("Copied"),
            () => setCopied("Copy failed"),
          );
        }}
      >
        {copied ?? "Copy"}
      </button>
    </span>
  );
}
