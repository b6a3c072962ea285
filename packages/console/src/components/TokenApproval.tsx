import { useContext, useEffect, useState } from "react";
import type { PreparedTx } from "@points/sdk";
import { useWallet } from "../wallet/wallet";
import { tokenFacts } from "../dashboard/preflight/chainReads";
import { DashContext } from "../dashboard/context";
import { YOUR_WALLET, addressName } from "../safe/decode";
import { Address } from "./format/Address";
import { Amount } from "./format/Amount";
import { UserText } from "./format/UserText";

/**
 * An approval prompt names the token by the symbol it gives itself AND by its address (shortened,
 * copy, explorer link): a symbol alone can be borrowed by any token.
 */
export function TokenApproval({ tx, explorerUrl }: { tx: PreparedTx; explorerUrl?: string | null }) {
  const wallet = useWallet();
  const dash = useContext(DashContext);
  const [token, setToken] = useState<{ symbol: string; decimals: number } | null>(null);
  useEffect(() => {
    const p = wallet.provider();
    if (!p) return;
    let live = true;
    tokenFacts(p, tx.to).then(
      (t) => live && setToken(t),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [tx.to]);
  if (tx.call.function !== "approve") return null;
  const [spender, amount] = tx.call.args as [string, string];
  const spenderName = dash ? addressName(dash.program, String(spender), dash) : null;
  return (
    <p className="notice" data-testid="approval-token">
      Approve{" "}
      {token ? (
        <Amount value={String(amount)} decimals={token.decimals} symbol={token.symbol} />
      ) : (
        <code>{String(amount)}</code>
      )}{" "}
      of the token{" "}
      <strong>
        <UserText text={token?.symbol ?? "(symbol not read)"} />
      </strong>{" "}
      at <Address address={tx.to} explorerUrl={explorerUrl} /> for the spender{" "}
      {spenderName && <>{spenderName === YOUR_WALLET ? spenderName : `the ${spenderName}`} </>}
      <Address address={String(spender)} explorerUrl={explorerUrl} />.
    </p>
  );
}
