import { Fragment, createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from "react";
import { formatUnits, type TransactionReceipt } from "ethers";
import { PointsApiError, type PreparedTx } from "@points/sdk";
import { describeError, type Described } from "../api/errors";
import { useWallet } from "../wallet/wallet";
import { ErrorBox } from "./ui";
import { DashContext } from "../dashboard/context";
import { proposeSafeTx } from "../safe/propose";
import { Proposed, SafeReview } from "../safe/SafeReview";
import { Actions, NamedAddress } from "../safe/Actions";
import type { DecodedCall } from "../safe/decode";
import type { ProgramView } from "../dashboard/context";
import { TokenApproval } from "./TokenApproval";
import type { RoleOn } from "../safe/roleSafes";
import { Address } from "./format/Address";

/** One write: how to build it through the API, and what to do once it is mined. */
export interface TxJob {
  title: string;
  /** Set for actions that cannot be undone or change who may act: shown as a warning before signing. */
  destructive?: string;
  /** The role a Safe runs this action for (said in the review): the action needs it. */
  role?: RoleOn;
  /**
   * What the call does in words (durations, percentages, names), shown first in the review; the
   * decoded call (contract address, function, raw arguments) then sits under "Technical details".
   */
  words?: [label: string, value: ReactNode][];
  build(): Promise<PreparedTx>;
  onDone?(receipt: TransactionReceipt): void;
}

type Phase =
  | { kind: "building" }
  | { kind: "review"; tx: PreparedTx }
  | { kind: "prerequisite"; tx: PreparedTx; reason: Described }
  | { kind: "signing"; tx: PreparedTx; prerequisite: boolean }
  | { kind: "done"; tx: PreparedTx; receipt: TransactionReceipt }
  | { kind: "proposed"; tx: PreparedTx; proposalId: string; signed: boolean }
  | { kind: "error"; error: Described; tx?: PreparedTx };

const TxContext = createContext<(job: TxJob) => void>(() => undefined);

/** `run(job)`: builds through the API, shows what will be signed, signs in the wallet, shows the receipt. */
export const useTx = () => useContext(TxContext);

export function TxProvider({ children, explorerUrl }: { children: ReactNode; explorerUrl?: string | null }) {
  const wallet = useWallet();
  const dash = useContext(DashContext);
  // Read when an error is described: `build` keeps its identity while the symbol loads.
  const symbol = useRef<string | null>(null);
  symbol.current = dash?.tokenSymbol ?? null;
  const dialog = useRef<HTMLDialogElement>(null);
  const [job, setJob] = useState<TxJob | null>(null);
  const [phase, setPhase] = useState<Phase>({ kind: "building" });

  const build = useCallback(async (j: TxJob) => {
    setPhase({ kind: "building" });
    // The decoder comes while the API builds the call: the review reads it (see inWords).
    const decoding = loadDecoder().catch(() => undefined);
    try {
      const tx = await j.build();
      await decoding;
      setPhase({ kind: "review", tx });
    } catch (e) {
      await decoding;
      if (e instanceof PointsApiError && e.prerequisite) {
        setPhase({ kind: "prerequisite", tx: e.prerequisite, reason: describeError(e, symbol.current) });
      } else setPhase({ kind: "error", error: describeError(e, symbol.current) });
    }
  }, []);

  const run = useCallback(
    (j: TxJob) => {
      setJob(j);
      void build(j);
    },
    [build],
  );

  useEffect(() => {
    const d = dialog.current;
    if (job && d && !d.open) d.showModal();
  }, [job]);

  // sign and propose never reject: a failure becomes the dialog's error phase, shown in it.
  const sign = async (tx: PreparedTx, prerequisite: boolean) => {
    setPhase({ kind: "signing", tx, prerequisite });
    try {
      const receipt = await tx.send(await wallet.signer());
      if (prerequisite && job) return void (await build(job));
      setPhase({ kind: "done", tx, receipt });
      job?.onDone?.(receipt);
    } catch (e) {
      setPhase({ kind: "error", error: describeError(e, symbol.current), tx });
    }
  };

  // A Safe's action is not sent: it is stored as a proposal, signed by the wallet when it is an owner.
  const propose = async (tx: PreparedTx) => {
    const safe = tx.safe!;
    setPhase({ kind: "signing", tx, prerequisite: false });
    try {
      const owner = !!wallet.address && (safe.owners as string[]).includes(wallet.address);
      const signer = owner ? await wallet.signer() : null;
      const proposalId = await proposeSafeTx(dash!.client, signer, {
        chainId: tx.chainId,
        safe: safe.address,
        tx: safe.tx,
      });
      setPhase({ kind: "proposed", tx, proposalId, signed: owner });
      dash?.bump();
    } catch (e) {
      setPhase({ kind: "error", error: describeError(e, symbol.current), tx });
    }
  };

  const close = () => {
    dialog.current?.close();
    setJob(null);
  };
  const busy = phase.kind === "building" || phase.kind === "signing";

  return (
    <TxContext.Provider value={run}>
      {children}
      <dialog
        ref={dialog}
        className="tx-dialog"
        aria-labelledby="tx-title"
        onCancel={(e) => (busy ? e.preventDefault() : close())}
      >
        {job && (
          <div className="stack">
            <h2 id="tx-title">{job.title}</h2>
            <div aria-live="polite" className="stack">
              {phase.kind === "building" && <p className="progress">Preparing the transaction through the API…</p>}
              {phase.kind === "prerequisite" && (
                <>
                  <p className="notice">
                    This needs another transaction first: <strong>{phase.reason.title}</strong>.{" "}
                    {phase.tx.safe
                      ? "The Safe approves through a proposal of its own: propose it, have it signed and executed, then start this action again."
                      : "Sign the approval, then the original transaction is prepared again."}
                  </p>
                  <TokenApproval tx={phase.tx} explorerUrl={explorerUrl} />
                  {phase.tx.call.function === "approve" ? (
                    <details className="raw-call">
                      <summary>Technical details</summary>
                      <TxSummary tx={phase.tx} />
                    </details>
                  ) : (
                    <Review tx={phase.tx} />
                  )}
                </>
              )}
              {phase.kind === "review" && job.destructive && (
                <p className="notice danger-note" role="note">
                  <strong>Check before signing:</strong> {job.destructive}
                </p>
              )}
              {phase.kind === "review" && phase.tx.safe && <SafeReview safe={phase.tx.safe} role={job.role} />}
              {phase.kind === "review" && <Review tx={phase.tx} words={job.words} />}
              {phase.kind === "signing" && (
                <>
                  <Review tx={phase.tx} words={job.words} />
                  <p className="progress">
                    {phase.tx.safe
                      ? "Waiting for the wallet to sign the proposal, then for the service to store it…"
                      : "Waiting for the wallet to sign, then for the transaction to be mined…"}
                  </p>
                </>
              )}
              {phase.kind === "proposed" && (
                <Proposed id={phase.proposalId} signed={phase.signed} safe={phase.tx.safe!} onOpen={close} />
              )}
              {phase.kind === "done" && <Receipt tx={phase.tx} receipt={phase.receipt} explorerUrl={explorerUrl} />}
              {phase.kind === "error" && <ErrorBox error={phase.error} />}
            </div>
            <div className="row end">
              {phase.kind === "prerequisite" && phase.tx.safe && dash && (
                <button className="primary" onClick={() => void propose(phase.tx)}>
                  Propose the approval
                </button>
              )}
              {phase.kind === "prerequisite" && !phase.tx.safe && (
                <button className="primary" onClick={() => void sign(phase.tx, true)}>
                  Sign approval
                </button>
              )}
              {phase.kind === "review" && phase.tx.safe && dash && (
                <button className="primary" onClick={() => void propose(phase.tx)}>
                  {wallet.address && (phase.tx.safe.owners as string[]).includes(wallet.address)
                    ? "Sign and propose"
                    : "Propose"}
                </button>
              )}
              {phase.kind === "review" && !phase.tx.safe && (
                <button className={job?.destructive ? "danger" : "primary"} onClick={() => void sign(phase.tx, false)}>
                  Sign and send
                </button>
              )}
              <button onClick={close} disabled={busy}>
                {phase.kind === "done" || phase.kind === "proposed" ? "Done" : "Close"}
              </button>
            </div>
          </div>
        )}
      </dialog>
    </TxContext.Provider>
  );
}

const show = (v: unknown): string =>
  typeof v === "string" ? v : JSON.stringify(v, (_, x) => (typeof x === "bigint" ? x.toString() : x));

// The call decoder parses every program ABI when it loads (a main-thread task about as long as the
// rest of the dashboard's start): it loads with the first transaction, not with the dashboard.
let decoder: typeof import("../safe/decode") | undefined;
const loadDecoder = async () => (decoder ??= await import("../safe/decode"));

/** A call to one of the program's contracts in words (amounts in its token, roles and campaigns by name), else null. */
function inWords(program: ProgramView, tx: PreparedTx): DecodedCall[] | null {
  if (!decoder) return null; // its chunk failed to load: the raw call is shown
  try {
    const calls = decoder.decodeCalls(program, [{ to: tx.to, data: tx.transaction().data }]);
    return calls.every((c) => c.known) ? calls : null;
  } catch {
    // Bytes the program's ABIs do not decode: the raw call below is all there is to show.
    return null;
  }
}

/**
 * The review in words: the job's own, else the call decoded by the program's ABIs; the raw call
 * (addresses, smallest units) behind "Technical details". A call the console cannot read shows raw.
 */
function Review({ tx, words }: { tx: PreparedTx; words?: TxJob["words"] }) {
  const dash = useContext(DashContext);
  const calls = !words && dash ? inWords(dash.program, tx) : null;
  if (!words && !calls) return <TxSummary tx={tx} />;
  const signer = (
    <>
      <dt>Signer</dt>
      <dd>{dash ? <NamedAddress address={tx.from} /> : <Address address={tx.from} explorerUrl={null} />}</dd>
    </>
  );
  return (
    <>
      {words ? (
        <dl className="kv" data-testid="tx-words">
          {words.map(([label, value]) => (
            <Fragment key={label}>
              <dt>{label}</dt>
              <dd>{value}</dd>
            </Fragment>
          ))}
          {signer}
        </dl>
      ) : (
        <>
          <Actions calls={calls!} label="What this transaction does" />
          <dl className="kv">{signer}</dl>
        </>
      )}
      <details className="raw-call">
        <summary>Technical details</summary>
        <TxSummary tx={tx} />
      </details>
    </>
  );
}

/** Exactly what the wallet will be asked to sign, decoded by the API. */
export function TxSummary({ tx }: { tx: PreparedTx }) {
  return (
    <dl className="kv tx-summary">
      <dt>Contract</dt>
      <dd>
        {tx.call.contract} <code>{tx.to}</code>
      </dd>
      <dt>Function</dt>
      <dd>
        <code>{tx.call.function}</code>
      </dd>
      <dt>Arguments</dt>
      <dd>
        {tx.call.args.length === 0 ? (
          "none"
        ) : (
          <ol className="args">
            {tx.call.args.map((a, i) => (
              <li key={i}>
                <code>{show(a)}</code>
              </li>
            ))}
          </ol>
        )}
      </dd>
      <dt>Signer</dt>
      <dd>
        <code>{tx.from}</code>
      </dd>
      <dt>Chain</dt>
      <dd>{tx.chainId}</dd>
      <dt>Gas limit</dt>
      <dd>{tx.gas}</dd>
      <dt>Max fee</dt>
      <dd>{formatUnits(tx.maxFeePerGas, "gwei")} gwei</dd>
    </dl>
  );
}

function Receipt({
  tx,
  receipt,
  explorerUrl,
}: {
  tx: PreparedTx;
  receipt: TransactionReceipt;
  explorerUrl?: string | null;
}) {
  return (
    <div className="success" role="status">
      <p>
        <strong>Confirmed</strong> in block {receipt.blockNumber}.
      </p>
      <dl className="kv">
        <dt>Call</dt>
        <dd>
          <code>
            {tx.call.contract}.{tx.call.function}
          </code>
        </dd>
        <dt>Signed by</dt>
        <dd>
          <code>{tx.from}</code>
        </dd>
        <dt>Transaction</dt>
        <dd>
          {explorerUrl ? (
            <a href={`${explorerUrl.replace(/\/$/, "")}/tx/${receipt.hash}`} target="_blank" rel="noopener noreferrer">
              <code>{receipt.hash}</code>
            </a>
          ) : (
            <code>{receipt.hash}</code>
          )}
        </dd>
        <dt>Gas used</dt>
        <dd>{receipt.gasUsed.toString()}</dd>
      </dl>
    </div>
  );
}
