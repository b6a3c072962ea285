import { useState } from "react";
import { Link } from "react-router";
import { PointsApiError, prepare, type UnsignedTx } from "@points/sdk";
import { describeError, type Described } from "../api/errors";
import { Card, ErrorBox } from "../components/ui";
import { Address } from "../components/format/Address";
import { useTx } from "../components/TxDialog";
import { useDash, useLoad } from "../dashboard/context";
import { NotFound } from "../NotFound";
import { useWallet } from "../wallet/wallet";
import { Actions } from "./Actions";
import { decodeSafeTx } from "./decode";
import { signSafeTx } from "./propose";
import { STATUS_BADGE, STATUS_SENTENCES, STATUS_WORDS } from "./status";
import { useCampaignNames } from "../dashboard/ledger/campaignNames";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** One proposal: what it does, who signed, what is missing; sign as an owner, execute once executable. */
export function ProposalDetail({ id }: { id: string }) {
  const { client, program, bump, explorerUrl } = useDash();
  const wallet = useWallet();
  const run = useTx();
  const names = useCampaignNames();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Described | null>(null);
  const p = useLoad(
    async () =>
      !UUID.test(id)
        ? null
        : client.safe.proposal(id).catch((e) => {
            if (e instanceof PointsApiError && e.code === "NOT_FOUND") return null;
            throw e;
          }),
    [id],
  );

  if (p.value === null && !p.loading) return <NotFound what="This proposal" />;
  if (!p.value) return p.error ? <ErrorBox error={p.error} /> : <p className="progress">Loading the proposal…</p>;
  const prop = p.value;
  const me = wallet.address;
  const isOwner = !!me && (prop.owners as string[]).includes(me);
  const signedByMe = !!me && prop.signatures.some((s) => s.owner === me);
  const open = prop.status === "pending" || prop.status === "executable";

  // Never rejects: a failure shows in the proposal's ErrorBox.
  const sign = async () => {
    setBusy(true);
    setError(null);
    try {
      const signature = await signSafeTx(await wallet.signer(), prop.chainId, prop.safe, prop.tx);
      await client.safe.sign(prop.id, signature);
      bump();
    } catch (e) {
      setError(describeError(e));
    } finally {
      setBusy(false);
    }
  };
  const execute = () =>
    run({
      title: "Execute the Safe proposal",
      build: async () => {
        const exec = await client.safe.execute(prop.id, me!);
        // The Safe's execTransaction, shown in the dialog like any other call before the wallet signs it.
        return prepare({
          ...exec,
          call: { contract: "Safe", function: "execTransaction", args: [] },
        } as unknown as UnsignedTx);
      },
      onDone: bump,
    });

  return (
    <div className="stack">
      <p>
        <Link to="/program/safe">← All proposals</Link>
      </p>
      <Card title="Safe proposal">
        <p>
          <span className={STATUS_BADGE[prop.status]}>{STATUS_WORDS[prop.status]}</span> {STATUS_SENTENCES[prop.status]}
        </p>
        <dl className="kv">
          <dt>Safe</dt>
          <dd>
            <Address address={prop.safe} explorerUrl={explorerUrl} />
          </dd>
          <dt>Nonce</dt>
          <dd>{prop.tx.nonce}</dd>
          <dt>Signatures</dt>
          <dd data-testid="signature-count">
            {Math.min(prop.signatures.length, prop.threshold)} of {prop.threshold} needed
            {open && prop.missing > 0 ? `, ${prop.missing} missing` : ""} ({prop.owners.length} owners)
          </dd>
        </dl>
        <h4>What it does</h4>
        <Actions calls={decodeSafeTx(program, prop.tx, names)} />
        <h4>Owners</h4>
        <ul className="plain stack" aria-label="Owners and their signatures">
          {prop.owners.map((o) => {
            const s = prop.signatures.find((x) => x.owner === o);
            return (
              <li key={o}>
                <Address address={o} explorerUrl={explorerUrl} />{" "}
                {s ? <span className="badge ok">signed</span> : <span className="badge">not signed</span>}
                {o === me && <span className="badge accent">your wallet</span>}
              </li>
            );
          })}
        </ul>
      </Card>
      <Card title="Your part">
        <ErrorBox error={error} />
        {!me ? (
          <p>Connect your wallet to sign or execute this proposal.</p>
        ) : !open ? (
          <p>Nothing left to sign or execute.</p>
        ) : (
          <>
            {!isOwner && (
              <p role="note" data-testid="not-owner">
                Your wallet is not an owner of this Safe, so it cannot sign this proposal. Connect one of the owners
                listed above.
              </p>
            )}
            {isOwner && signedByMe && <p>Your wallet signed this proposal.</p>}
            {isOwner && !signedByMe && prop.missing > 0 && (
              <button className="primary" disabled={busy} onClick={() => void sign()}>
                {busy ? "Waiting for the wallet…" : "Sign the proposal"}
              </button>
            )}
            {prop.status === "executable" ? (
              <div className="row">
                <button className="primary" onClick={execute}>
                  Execute
                </button>
              </div>
            ) : (
              prop.missing === 0 && <p>Enough owners signed; an earlier Safe transaction must run first.</p>
            )}
          </>
        )}
      </Card>
    </div>
  );
}
