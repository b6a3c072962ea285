import { Link, useParams } from "react-router";
import { Card, ErrorBox } from "../components/ui";
import { Address } from "../components/format/Address";
import { useDash, useLoad } from "../dashboard/context";
import { useWallet } from "../wallet/wallet";
import { CONTRACT_WORDS } from "../dashboard/names";
import { decodeSafeTx } from "./decode";
import { Handover } from "./Handover";
import { ProposalDetail } from "./ProposalDetail";
import { STATUS_BADGE, STATUS_ORDER, STATUS_WORDS } from "./status";
import { useCampaignNames } from "../dashboard/ledger/campaignNames";
import { rolesInWords } from "./ActAs";
import type { RoleSafe } from "./roleSafes";

/** /console/program/safe: the program's Safes (any role), their proposals, the admin handover; /safe/<id>: one proposal. */
export function SafePage() {
  const sub = useParams().sub;
  if (sub !== undefined) return <ProposalDetail id={sub} />;
  return (
    <div className="split">
      <div className="stack">
        <SafeSummary />
        <ProposalList />
      </div>
      <div className="stack">
        <Handover />
      </div>
    </div>
  );
}

function SafeSummary() {
  const { safe, safes, program } = useDash();
  const wallet = useWallet();
  const onChain = String(wallet.chainId) === program.chainId;
  return (
    <Card title="The program's Safes">
      {!onChain ? (
        <p>
          Connect your wallet on chain {program.chainId}: the Safes, their owners and the admin are read from the chain.
        </p>
      ) : (
        !safe && (
          <p>
            This program's admin is a wallet, not a Safe. Hand the admin role to a Safe with the steps on this page.
          </p>
        )
      )}
      {onChain && safes.map((s) => <SafeCard key={s.address} safe={s} />)}
    </Card>
  );
}

/** One Safe holding roles: what it may do, how many sign, who owns it. */
function SafeCard({ safe }: { safe: RoleSafe }) {
  const { explorerUrl } = useDash();
  const wallet = useWallet();
  return (
    <section className="stack" aria-label={`Safe ${safe.address}`}>
      <dl className="kv">
        <dt>Safe</dt>
        <dd>
          <Address address={safe.address} explorerUrl={explorerUrl} />
        </dd>
        <dt>Roles</dt>
        <dd>{rolesInWords(safe.roles)}</dd>
        <dt>Signatures needed</dt>
        <dd>
          {safe.threshold} of {safe.owners.length} owners
        </dd>
        <dt>Next nonce</dt>
        <dd>{safe.nonce.toString()}</dd>
        <dt>Version</dt>
        <dd>Safe {safe.version}</dd>
      </dl>
      <h4>Owners</h4>
      <ul className="plain stack" aria-label="Owners of the Safe">
        {safe.owners.map((o) => (
          <li key={o}>
            <Address address={o} explorerUrl={explorerUrl} />
            {o === wallet.address && <span className="badge ok">your wallet</span>}
          </li>
        ))}
      </ul>
    </section>
  );
}

function ProposalList() {
  const { client, program, safes } = useDash();
  const names = useCampaignNames();
  // Every page: the list is sorted by status below, so a first page alone could hide executable ones.
  const list = useLoad(async () => {
    const all = [];
    for await (const p of client.safe.allProposals({ chainId: program.chainId })) all.push(p);
    return all;
  }, [program.chainId]);
  // Which Safe each proposal belongs to, by the roles it holds (a Safe not yet holding any: none said).
  const roleOf = (address: string) => {
    const s = safes.find((x) => x.address.toLowerCase() === address.toLowerCase());
    return s ? ` (${rolesInWords(s.roles)})` : "";
  };
  const sorted = [...(list.value ?? [])].sort(
    (a, b) => STATUS_ORDER.indexOf(a.status) - STATUS_ORDER.indexOf(b.status),
  );
  return (
    <Card title="Proposals">
      <ErrorBox error={list.error} />
      {list.value && list.value.length === 0 && (
        <p className="muted">
          No proposal yet. While "Act as the Safe" above the tabs is ticked, an action in the dashboard becomes a
          proposal to the Safe that holds the role it needs.
        </p>
      )}
      <ul className="list stack" aria-label="Safe proposals">
        {sorted.map((p) => {
          const calls = decodeSafeTx(program, p.tx, names);
          const first = calls[0]!;
          const signed = p.signatures.length;
          return (
            <li key={p.id}>
              <Link to={`/program/safe/${p.id}`} className="proposal-link">
                <span className={STATUS_BADGE[p.status]}>{STATUS_WORDS[p.status]}</span> {first.action}
                {first.contract ? ` on the ${CONTRACT_WORDS[first.contract]}` : ""}
                {calls.length > 1 ? ` and ${calls.length - 1} more actions` : ""}
              </Link>
              <p className="muted">
                Safe {p.safe.slice(0, 10)}…{roleOf(p.safe)} · Nonce {p.tx.nonce} · {Math.min(signed, p.threshold)} of{" "}
                {p.threshold} signatures
                {p.missing > 0 && p.status === "pending" ? ` · ${p.missing} missing` : ""}
              </p>
            </li>
          );
        })}
      </ul>
    </Card>
  );
}
