export { CONTRACT_WORDS, roleWords } from "./nameWords";

/** A name in words, with the on-chain name behind a disclosure. */
export function OnChainName({ words, onChain }: { words: string; onChain: string }) {
  if (words === onChain) return <>{words}</>;
  return (
    <span className="onchain-name">
      {words}
      <details>
        <summary>
          <span className="sr-only">On-chain name of {words}</span>
          {/* Plain text, not an icon glyph: every font has it. */}
          <span aria-hidden="true" className="onchain-toggle">
            id
          </span>
        </summary>
        <code>{onChain}</code>
      </details>
    </span>
  );
}
