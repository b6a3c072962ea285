import { useEffect, useState } from "react";
import { useWallet } from "../wallet/wallet";
import { tokenFacts } from "../dashboard/preflight/chainReads";
import { Amount } from "./format/Amount";

/**
 * An amount of the ERC-20 at `token` in its own units and symbol, read from the token itself
 * (`decimals()`, `symbol()`); smallest units, said so, while it cannot be read.
 */
export function TokenAmount({ value, token }: { value: string; token: string }) {
  const wallet = useWallet();
  const [facts, setFacts] = useState<{ symbol: string; decimals: number } | null>(null);
  useEffect(() => {
    const p = wallet.provider();
    if (!p) return;
    let live = true;
    tokenFacts(p, token).then(
      (t) => live && setFacts(t),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [token]);
  if (!facts) return <>{value.split(",").join(", ")} (smallest units)</>;
  return (
    <>
      {value.split(",").map((v, i) => (
        <span key={i}>
          {i > 0 && ", "}
          <Amount value={v} decimals={facts.decimals} symbol={facts.symbol} />
        </span>
      ))}
    </>
  );
}
