import { useState } from "react";
import { useTx } from "../components/TxDialog";
import { Card, ErrorBox, Table } from "../components/ui";
import { ActionForm } from "./ActionForm";
import { redeemCheck } from "./preflight/programChecks";
import { whenRunning } from "./preflight/paused";
import { useWallet } from "../wallet/wallet";
import { useDash, useLoad } from "./context";
import { useLedger } from "./ledger/useLedger";
import { LedgerStatus } from "./ledger/LedgerStatus";
import { SP_DECIMALS } from "./units";
import { tokenAmount, tokenWord } from "./tokenSymbol";
import { useTokenSymbol } from "./useTokenSymbol";
import { readyIn } from "./readyIn";
import { durationWords } from "../components/format/duration";

/** How many of the latest requests the table shows. */
const RECENT = 10;

/** Create, cancel and finalize redemption requests, and see their status. */
export function Redemption() {
  const { client, program, from, bump } = useDash();
  const wallet = useWallet();
  // Pause states are read through the wallet's RPC, only when it is on the program's chain.
  const chainReader = () => (String(wallet.chainId) === program.chainId ? wallet.provider() : null);
  const symbol = useTokenSymbol();
  const run = useTx();
  const state = useLoad(() => client.read.factoryState(), []);
  const [assetIdx, setAssetIdx] = useState(0);
  const s = state.value;
  const asset = s?.assets[assetIdx];
  const scope = (assetAddr: string) => ({ chainId: program.chainId, factoryAddr: program.factory, assetAddr });
  // The latest requests and their status come from the ledger, newest first.
  const requests = useLedger(() => client.ledger.redemptions({ limit: RECENT }), []);
  // What the chain would refuse (EnforcedPause): a cancel returns SP and a finalization burns it,
  // so neither while the Points token is paused; finalizing also needs the Factory running.
  const canCancel = !s?.pointsPaused;
  const canFinalize = !s?.pointsPaused && !s?.paused;
  const pausedNote = s?.pointsPaused
    ? "The Points token is paused: no request can be cancelled or finalized until a PAUSER_ROLE holder unpauses it on the Roles page."
    : s?.paused
      ? "The Factory is paused: requests can be cancelled, but none finalized until a PAUSER_ROLE holder unpauses it on the Roles page."
      : null;

  const act = (kind: "cancel" | "finalize", requestId: string, assetAddr: string) =>
    from &&
    run({
      title: `${kind === "cancel" ? "Cancel" : "Finalize"} redemption #${requestId}`,
      build: () =>
        kind === "cancel"
          ? client.redeem.cancel(scope(assetAddr), requestId, { from })
          : client.redeem.finalize(scope(assetAddr), requestId, { from }),
      onDone: bump,
    });

  return (
    <div className="halves">
      <Card title="Request a redemption">
        <ErrorBox error={state.error} />
        {s && asset && (
          <>
            {s.assets.length > 1 && (
              <div className="field">
                <label htmlFor="redeem-asset">Collateral asset</label>
                <select id="redeem-asset" value={assetIdx} onChange={(e) => setAssetIdx(Number(e.target.value))}>
                  {s.assets.map((a, i) => (
                    <option key={a.asset} value={i}>
                      {a.symbol}
                    </option>
                  ))}
                </select>
              </div>
            )}
            <p className="muted">
              Your {tokenWord(symbol)} go into escrow; after {durationWords(s.redeemDelay)} you (or at once an executor)
              finalize it and receive {asset.symbol}. Basket mode is {s.basketMode ? "on" : "off"}.
            </p>
            <ActionForm
              title={`Redeem ${tokenWord(symbol)} for ${asset.symbol}`}
              submit="Request redemption"
              idPrefix="redeem"
              check={whenRunning(
                chainReader,
                program,
                ["factory", "points"],
                "this request",
                redeemCheck(client, symbol),
              )}
              fields={[
                { name: "amount", label: "Amount", kind: "sp" },
                { name: "to", label: "Send collateral to", kind: "address", initial: from ?? "" },
              ]}
              build={(v, from) =>
                client.redeem.create(
                  scope(asset.asset),
                  { to: v.to, amount: v.amount, expectedBasketMode: s.basketMode },
                  { from },
                )
              }
            />
          </>
        )}
      </Card>
      {/* Beside the form: four columns fit half of a wide page (a third was too narrow); on a phone the rows stack. */}
      <div>
        <Card title="Recent requests">
          <LedgerStatus stand={requests.value ? requests.stand : null} />
          <ErrorBox error={requests.error} />
          {requests.value?.requests.length === 0 && <p className="muted">No redemption request yet.</p>}
          {pausedNote && (
            <p className="notice" role="note" data-testid="redemption-paused">
              {pausedNote}
            </p>
          )}
          {requests.value && requests.value.requests.length > 0 && (
            <Table columns={["#", "Amount", "Status", "Actions"]} className="stacked">
              {requests.value.requests.map((r) => {
                const open = r.status === "pending" || r.status === "ready";
                return (
                  <tr key={r.requestId}>
                    <td data-label="#">{r.requestId}</td>
                    {/* One box per cell: a stacked row lays out a cell's children as grid items. */}
                    <td data-label="Amount">
                      <div>
                        {tokenAmount(r.amount, SP_DECIMALS, symbol)}
                        <br />
                        <small className="muted">to {r.to.slice(0, 10)}…</small>
                      </div>
                    </td>
                    <td data-label="Status">
                      <div>
                        <span className="badge">
                          {r.status === "ready"
                            ? "ready to finalize"
                            : r.status === "pending"
                              ? readyIn(r.readyAt, Date.now())
                              : r.status}
                        </span>
                        <small className="muted block">
                          requested {r.requestedAt.time.replace("T", " ").slice(0, 16)} UTC
                        </small>
                      </div>
                    </td>
                    <td data-label="Actions">
                      {open && (canCancel || canFinalize) && (
                        <div className="row wrap">
                          {canCancel && (
                            <button disabled={!from} onClick={() => act("cancel", r.requestId, r.asset)}>
                              Cancel
                            </button>
                          )}
                          {canFinalize && (
                            <button disabled={!from} onClick={() => act("finalize", r.requestId, r.asset)}>
                              Finalize
                            </button>
                          )}
                        </div>
                      )}
                    </td>
                  </tr>
                );
              })}
            </Table>
          )}
        </Card>
      </div>
    </div>
  );
}
