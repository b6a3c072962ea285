import { useEffect, useId, useState, type ChangeEvent, type FormEvent } from "react";
import { PointsApiError, type BulkPlan, type BulkProgress } from "@points/sdk";
import { describeError, type Described } from "../api/errors";
import { Card, ErrorBox, Field, isAddress } from "../components/ui";
import { useWallet } from "../wallet/wallet";
import { useDash } from "../dashboard/context";
import { useLedger } from "../dashboard/ledger/useLedger";
import { verifiedLabel } from "../dashboard/campaignLabel";
import { escapeHidden } from "../components/format/text";
import { BadRows, type BadRow } from "./BadRows";
import { DryRun } from "./DryRun";
import { Progress } from "./Progress";
import { OPERATIONS, bulkNeeds, requestPlan, type Operation } from "./operations";
import { pausedStates } from "../dashboard/chain";
import { pausedBlocker } from "../dashboard/preflight/paused";
import { clearPlan, loadPlan, savePlan } from "./savedPlan";
import { withoutRowMetadata } from "./rowMetadata";

type Check =
  | { kind: "idle" }
  | { kind: "checking" }
  | { kind: "bad"; rows: BadRow[] }
  | { kind: "dry"; plan: BulkPlan }
  | { kind: "error"; error: Described };

/**
 * Bulk drops (docs/rules.md#bulk-requests): a CSV checked by a dry run shown as a table, then its
 * chunks signed in order by the wallet, with progress; a failed or interrupted drop resumes from
 * the plan kept in this browser, and the SDK skips the chunks already on chain.
 */
export function BulkUpload() {
  const { client, program, from, explorerUrl, bump } = useDash();
  const wallet = useWallet();
  const ids = { op: useId(), campaign: useId(), file: useId() };
  const [operation, setOperation] = useState<Operation>("mint");
  const [campaignId, setCampaignId] = useState("");
  const [receiver, setReceiver] = useState("");
  const [csv, setCsv] = useState("");
  const [check, setCheck] = useState<Check>({ kind: "idle" });
  const [sending, setSending] = useState<BulkPlan | null>(() => loadPlan(program.id));
  const [progress, setProgress] = useState<Record<number, BulkProgress>>({});
  const [state, setState] = useState<"ready" | "sending" | "failed" | "done">(sending ? "failed" : "ready");
  const [sendError, setSendError] = useState<Described | null>(null);

  // After a reload: which chunks of the kept plan are already on chain (the SDK's own check).
  useEffect(() => {
    if (!sending || state !== "failed" || !wallet.address) return;
    let live = true;
    wallet
      .signer()
      .then((s) => client.bulk.landed(sending, s))
      .then(
        (landed) =>
          live &&
          setProgress((all) => ({
            ...Object.fromEntries([...landed].map((i) => [i, { index: i, status: "landed" as const }])),
            ...all,
          })),
        () => undefined,
      );
    return () => {
      live = false;
    };
  }, [sending, wallet.address]);

  // The program's campaigns from the ledger (docs/architecture.md#the-ledger), named by label;
  // re-read until the ledger reaches the chain's head, so a campaign just created appears.
  const ledger = useLedger(() => client.ledger.campaigns(), []);
  const campaigns = {
    value: ledger.value?.campaigns.map((c) => ({ id: c.campaignId, label: verifiedLabel(c.campaignId, c.metadata) })),
    error: ledger.error,
  };
  useEffect(() => {
    if (!campaignId && campaigns.value?.[0]) setCampaignId(campaigns.value[0].id);
  }, [ledger.value]);

  // Any change to what would be sent drops the dry run: what is signed is what was checked.
  const edit =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      set(v);
      setCheck({ kind: "idle" });
    };
  const onFile = (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    file?.text().then(edit(setCsv), (err: unknown) =>
      setCheck({
        kind: "error",
        error: { ...describeError(err), title: "The file could not be read; choose it again." },
      }),
    );
  };
  const receiverError =
    operation === "settle" && receiver.trim() && !isAddress(receiver) ? "Must be an address." : null;
  const input = () => ({ operation, campaignId, csv, receiver, from: from ?? "" });

  const onCheck = (e: FormEvent) => {
    e.preventDefault();
    void runCheck(csv);
  };
  // Never rejects: every outcome, failures included, lands in `check` and shows under the form.
  const runCheck = async (rows: string) => {
    if (!from) return setCheck({ kind: "error", error: { title: "Connect your wallet first." } });
    setCheck({ kind: "checking" });
    try {
      // A paused contract refuses every row: said before the dry run, named as the chain would.
      const p = String(wallet.chainId) === program.chainId ? wallet.provider() : null;
      const stopped = p && pausedBlocker(await pausedStates(p, program), bulkNeeds(operation), "this drop");
      if (stopped) return setCheck({ kind: "error", error: { title: stopped.message } });
      setCheck({ kind: "dry", plan: await requestPlan(client, { ...input(), csv: rows }, true) });
    } catch (err) {
      const rows = (err as PointsApiError).details as { rows?: BadRow[] } | undefined;
      if (err instanceof PointsApiError && err.code === "INVALID_ROWS" && Array.isArray(rows?.rows)) {
        setCheck({ kind: "bad", rows: rows.rows });
      } else setCheck({ kind: "error", error: describeError(err) });
    }
  };

  // send and onSign never reject: a failure shows in the drop's ErrorBox (sendError).
  const send = async (plan: BulkPlan) => {
    setState("sending");
    setSendError(null);
    try {
      await client.bulk.send(plan, await wallet.signer(), {
        onProgress: (p) => setProgress((all) => ({ ...all, [p.index]: p })),
      });
      clearPlan(program.id);
      setState("done");
      bump();
    } catch (err) {
      setSendError(describeError(err));
      setState("failed");
    }
  };

  const onSign = async () => {
    setSendError(null);
    setProgress({});
    try {
      const plan = await requestPlan(client, input(), false);
      // Kept before the first signature: a reload mid-drop resumes with this plan.
      savePlan(program.id, plan);
      setSending(plan);
      setCheck({ kind: "idle" });
      await send(plan);
    } catch (err) {
      setSendError(describeError(err));
    }
  };

  const discard = () => {
    clearPlan(program.id);
    setSending(null);
    setProgress({});
    setState("ready");
    setSendError(null);
  };

  // The rows without their metadata column, checked again: what is then signed is what this dry run shows.
  const dropMetadata = async () => {
    const rows = await withoutRowMetadata(csv).catch(() => null);
    if (rows === null) {
      return setCheck({
        kind: "error",
        error: { title: "The rows could not be read as CSV; edit them and check again." },
      });
    }
    setCsv(rows);
    await runCheck(rows);
  };

  const dry = check.kind === "dry" ? check.plan : null;
  const canSign = dry && !dry.blocked && dry.notAllowed.length === 0 && state !== "sending";
  const opLabel = (op: Operation) => OPERATIONS.find((o) => o.value === op)!.label;

  return (
    <div className="stack">
      {sending && (
        <Card title={state === "done" ? "Drop sent" : `Sending: ${opLabel(sending.operation)}`}>
          {state === "failed" && (
            <p className="notice">
              This drop is not finished. Resume sends the chunks not yet on chain, in order; chunks already on chain are
              skipped, so nothing is issued twice.
            </p>
          )}
          <ErrorBox error={sendError} />
          <Progress plan={sending} progress={progress} explorerUrl={explorerUrl} />
          <div className="row wrap">
            {state === "failed" && (
              <button className="primary" onClick={() => void send(sending)}>
                Resume
              </button>
            )}
            {state !== "sending" && (
              <button onClick={discard}>{state === "done" ? "Start another drop" : "Discard this drop"}</button>
            )}
          </div>
        </Card>
      )}
      {!sending && (
        <div className="halves">
          <Card title="Bulk drop">
            <form className="stack" onSubmit={onCheck} noValidate>
              <div className="field">
                <label htmlFor={ids.op}>Operation</label>
                <select id={ids.op} value={operation} onChange={(e) => edit(setOperation)(e.target.value as Operation)}>
                  {OPERATIONS.map((o) => (
                    <option key={o.value} value={o.value}>
                      {o.label}
                    </option>
                  ))}
                </select>
              </div>
              <div className="field">
                <label htmlFor={ids.campaign}>Campaign</label>
                <select id={ids.campaign} value={campaignId} onChange={(e) => edit(setCampaignId)(e.target.value)}>
                  {campaigns.value?.length === 0 && <option value="">No campaign yet</option>}
                  {campaigns.value?.map((c) => (
                    <option key={c.id} value={c.id}>
                      {c.label !== undefined ? escapeHidden(c.label) : `${c.id.slice(0, 10)}… (unverified)`}
                    </option>
                  ))}
                </select>
              </div>
              {operation === "settle" && (
                <Field
                  label="Receiver"
                  value={receiver}
                  error={receiverError}
                  hint="Gets the settled points; on the campaign's settlement allowlist."
                  onChange={(e) => edit(setReceiver)(e.target.value)}
                />
              )}
              <div className="field">
                <label htmlFor={ids.file}>CSV file</label>
                <input id={ids.file} type="file" accept=".csv,text/csv,text/plain" onChange={onFile} />
              </div>
              <Field
                label="Rows (address,amount[,metadata])"
                textarea
                className="bulk-csv"
                spellCheck={false}
                value={csv}
                hint={`One row per line; amounts in pSP, "." as decimal point (1.5). A header line is optional.`}
                onChange={(e) => edit(setCsv)(e.target.value)}
              />
              <div className="row wrap">
                <button type="submit" disabled={!csv.trim() || !campaignId || check.kind === "checking"}>
                  Check rows (dry run)
                </button>
              </div>
            </form>
            <ErrorBox error={campaigns.error} />
          </Card>
          <div className="stack" aria-live="polite">
            {check.kind === "idle" && (
              <p className="muted panel">Check the rows first: nothing is signed before you see the dry run.</p>
            )}
            {check.kind === "checking" && <p className="progress">Checking every row…</p>}
            {check.kind === "bad" && <BadRows rows={check.rows} />}
            {check.kind === "error" && <ErrorBox error={check.error} />}
            {dry && (
              <Card title="Dry run">
                <DryRun plan={dry} explorerUrl={explorerUrl} onDropMetadata={() => void dropMetadata()} />
                <ErrorBox error={sendError} />
                <button className="primary" disabled={!canSign} onClick={() => void onSign()}>
                  Sign and send {dry.chunkCount} transaction{dry.chunkCount === 1 ? "" : "s"}
                </button>
              </Card>
            )}
          </div>
        </div>
      )}
    </div>
  );
}
