import { useState, type FormEvent } from "react";
import { useNavigate } from "react-router";
import { describeError, type Described } from "../api/errors";
import { Card, ErrorBox, Field, isAddress } from "../components/ui";
import { Address } from "../components/format/Address";
import { useTx } from "../components/TxDialog";
import { useDash, useLoad } from "../dashboard/context";
import { CONTRACT_WORDS, roleWords } from "../dashboard/names";
import { useWallet } from "../wallet/wallet";
import { proposeSafeTx } from "./propose";
import { HANDOVER_CONTRACTS, commonAdmin, readAdmins, readSafe, type HandoverContract } from "./safeChain";
import { handled } from "../components/handled";

type Step = "done" | "now" | "later";
const STEP_WORDS: Record<Step, string> = { done: "Done", now: "Now", later: "Later" };

/**
 * The admin handover from a wallet to a Safe, as steps read from the chain
 * (docs/deployment.md#admin-handover): the admin offers DEFAULT_ADMIN_ROLE on the four contracts,
 * then the Safe accepts on all four in one proposal, optionally taking over the old admin's other
 * roles; the admin may cancel while the offer is open.
 */
export function Handover() {
  const { client, program, wallet: me, bump, explorerUrl } = useDash();
  const wallet = useWallet();
  const run = useTx();
  const navigate = useNavigate();
  const onChain = String(wallet.chainId) === program.chainId;
  const [target, setTarget] = useState("");
  const [targetError, setTargetError] = useState<string | null>(null);
  const [move, setMove] = useState(true);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Described | null>(null);

  // Who holds which role, from the ledger (docs/architecture.md#the-ledger).
  const ledgerRoleHolders = async () =>
    (await client.ledger.roles()).contracts.flatMap((c) =>
      c.roles.map((r) => ({ contract: c.contract as string, role: r.role as string, accounts: r.holders })),
    );
  const state = useLoad(async () => {
    const provider = wallet.provider();
    if (!provider || !onChain) return null;
    const admins = await readAdmins(provider, program);
    const admin = commonAdmin(admins);
    const pending = admins.every((a) => a.pending && a.pending === admins[0]!.pending) ? admins[0]!.pending : null;
    const [adminSafe, pendingSafe, holders, latest] = await Promise.all([
      admin ? readSafe(provider, admin) : null,
      pending ? readSafe(provider, pending) : null,
      ledgerRoleHolders(),
      provider.getBlock("latest"),
    ]);
    // The contracts' admin delay: accepting runs only in a block after the latest schedule.
    const acceptFrom = Math.max(0, ...admins.map((a) => a.schedule));
    const ready = acceptFrom < (latest?.timestamp ?? 0);
    // The old admin's other roles on the four contracts: what the Safe may take over.
    const others = holders.filter(
      (h) =>
        !!admin &&
        h.role !== "DEFAULT_ADMIN_ROLE" &&
        (HANDOVER_CONTRACTS as readonly string[]).includes(h.contract) &&
        h.accounts.some((a) => a.toLowerCase() === admin.toLowerCase()),
    ) as { contract: HandoverContract; role: string }[];
    return { admins, admin, adminSafe, pending, pendingSafe, others, ready, acceptFrom };
  }, [onChain]);

  if (!onChain) return null;
  const s = state.value;
  const offered = s?.admins.filter((a) => a.pending !== null) ?? [];
  const step1: Step = s?.adminSafe ? "done" : s?.pending ? "done" : "now";
  const step2: Step = s?.adminSafe && !s.pending ? "done" : s?.pendingSafe ? "now" : "later";
  const step3: Step = s?.adminSafe && !s.pending ? "done" : "later";
  const nextToOffer = s?.admins.find((a) => a.pending === null || a.pending !== (s.pending ?? target.trim()));
  const isAdmin = !!me && !!s && s.admins.some((a) => a.admin === me);

  const begin = async (e: FormEvent) => {
    e.preventDefault();
    const to = (offered[0]?.pending ?? target).trim();
    if (!isAddress(to)) return setTargetError("Must be an address (0x + 40 hex digits).");
    const provider = wallet.provider();
    if (!provider || !(await readSafe(provider, to))) {
      return setTargetError(
        `This address is not a Safe on chain ${program.chainId}: its code does not answer a Safe's views.`,
      );
    }
    setTargetError(null);
    const c = s!.admins.find((a) => a.pending?.toLowerCase() !== to.toLowerCase());
    if (!c || !me) return;
    run({
      title: `Offer the admin role of the ${CONTRACT_WORDS[c.contract]} to the Safe`,
      destructive: `The Safe ${to} can take the admin role of the ${CONTRACT_WORDS[c.contract]} once it accepts.`,
      build: () => client.roles.handover.begin(c.contract, to, { from: me }),
      onDone: bump,
    });
  };
  const cancel = () => {
    const c = offered[0];
    if (!c || !me) return;
    run({
      title: `Cancel the handover of the ${CONTRACT_WORDS[c.contract]}`,
      build: () => client.roles.handover.cancel(c.contract, { from: me }),
      onDone: bump,
    });
  };
  // Never rejects: a failure shows in the card's ErrorBox.
  const accept = async () => {
    const safe = s!.pendingSafe!;
    setBusy(true);
    setError(null);
    try {
      const grants = move
        ? s!.others.map((o) => ({
            route: "grantRole" as const,
            body: { input: { contract: o.contract, role: o.role, account: safe.address } },
          }))
        : [];
      const revokes = move
        ? s!.others.map((o) => ({
            route: "revokeRole" as const,
            body: { input: { contract: o.contract, role: o.role, account: s!.admin! } },
          }))
        : [];
      const batch = await client.safe.batch({
        safe: safe.address,
        actions: [
          ...HANDOVER_CONTRACTS.map((contract) => ({
            route: "adminHandoverAccept" as const,
            body: { input: { contract } },
          })),
          ...grants,
          ...revokes,
        ] as Parameters<typeof client.safe.batch>[0]["actions"],
      });
      const signer = me && safe.owners.includes(me) ? await wallet.signer() : null;
      const id = await proposeSafeTx(client, signer, {
        chainId: program.chainId,
        safe: safe.address,
        tx: batch.safe.tx,
      });
      // Under a BrowserRouter navigate is synchronous; only data routers return a promise.
      void navigate(`/program/safe/${id}`);
    } catch (e) {
      setError(describeError(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card title="Hand the admin role to a Safe">
      <ErrorBox error={state.error ?? error} />
      <ol className="stages" aria-label="Handover steps">
        <li>
          <p>
            <span className="badge">{STEP_WORDS[step1]}</span> <strong>1. The admin offers the role.</strong> The
            current admin wallet offers the admin role of the four contracts to the Safe.
          </p>
          {s && step1 === "now" && (
            <form className="stack" onSubmit={handled(begin, setError)} noValidate data-form="handover-begin">
              <p>
                Current admin:{" "}
                {s.admin ? <Address address={s.admin} explorerUrl={explorerUrl} /> : "differs per contract"}
              </p>
              {offered.length === 0 && (
                <Field
                  label="Safe address"
                  value={target}
                  spellCheck={false}
                  error={targetError}
                  onChange={(e) => setTarget(e.target.value)}
                  hint="The Safe that will hold the admin role."
                />
              )}
              {offered.length > 0 && <ErrorBox error={targetError ? { title: targetError } : null} />}
              {isAdmin && nextToOffer ? (
                <button type="submit" className="danger">
                  Offer on the {CONTRACT_WORDS[nextToOffer.contract]} ({offered.length + 1} of{" "}
                  {HANDOVER_CONTRACTS.length})
                </button>
              ) : (
                <p>Only the current admin can offer the role: connect that wallet.</p>
              )}
            </form>
          )}
        </li>
        <li>
          <p>
            <span className="badge">{STEP_WORDS[step2]}</span> <strong>2. The Safe accepts.</strong> One proposal
            accepts on the four contracts; its owners sign it and one of them executes it.
          </p>
          {s && s.pending && !s.pendingSafe && (
            <p>
              The role is offered to <Address address={s.pending} />, which is not a Safe: that wallet accepts it
              itself.
            </p>
          )}
          {s?.pendingSafe && (
            <div className="stack">
              <p>
                Offered to the Safe <Address address={s.pendingSafe.address} explorerUrl={explorerUrl} /> (
                {s.pendingSafe.threshold} of {s.pendingSafe.owners.length} owners sign).
              </p>
              {s.others.length > 0 && (
                <label className="check">
                  <input type="checkbox" checked={move} onChange={(e) => setMove(e.target.checked)} />
                  In the same proposal, move the old admin's other roles to the Safe (granted to the Safe, revoked from
                  the old admin):{" "}
                  {s.others.map((o) => `${roleWords(o.role)} on the ${CONTRACT_WORDS[o.contract]}`).join(", ")}
                </label>
              )}
              {!s.ready ? (
                <div className="stack">
                  <p role="note">
                    The contracts' admin delay runs until {new Date(s.acceptFrom * 1000).toLocaleString()}: the Safe can
                    accept in the first block after it.
                  </p>
                  <div className="row">
                    <button onClick={bump}>Read the chain again</button>
                  </div>
                </div>
              ) : me && (s.pendingSafe.owners as string[]).includes(me) ? (
                <div className="row">
                  <button className="primary" disabled={busy} onClick={() => void accept()}>
                    {busy ? "Preparing the proposal…" : "Propose the acceptance"}
                  </button>
                </div>
              ) : (
                <p>Connect one of the Safe's owners to propose the acceptance.</p>
              )}
            </div>
          )}
          {s && offered.length > 0 && isAdmin && (
            <div className="row">
              <button onClick={cancel}>Cancel the offer on the {CONTRACT_WORDS[offered[0]!.contract]}</button>
            </div>
          )}
        </li>
        <li>
          <p>
            <span className="badge">{STEP_WORDS[step3]}</span> <strong>3. The Safe is the admin.</strong>{" "}
            {step3 === "done" && s?.adminSafe ? (
              <>
                <Address address={s.adminSafe.address} explorerUrl={explorerUrl} /> administers the four contracts.
              </>
            ) : (
              "Every admin action is then a proposal its owners sign."
            )}
          </p>
        </li>
      </ol>
    </Card>
  );
}
