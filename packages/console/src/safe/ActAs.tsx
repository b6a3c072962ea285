import { Link } from "react-router";
import { Address } from "../components/format/Address";
import { useDash } from "../dashboard/context";
import { CONTRACT_WORDS, roleWords } from "../dashboard/names";
import type { RoleOn, RoleSafe } from "./roleSafes";

/** "Settlement admin on the Campaign vault, Admin on the Factory". */
export const rolesInWords = (roles: RoleOn[]) =>
  roles.map((r) => `${roleWords(r.role)} on the ${CONTRACT_WORDS[r.contract] ?? r.contract}`).join(", ");

/**
 * Shown when Safes hold roles on the program: each Safe, the roles it holds and whether the
 * wallet owns it. An owner chooses whether actions become proposals to the Safe that holds the
 * role each action needs, or are sent from the wallet itself.
 */
export function ActAs() {
  const { safe, safes, wallet, actAsSafe, setActAsSafe, explorerUrl } = useDash();
  if (safes.length === 0) return null;
  const owns = (s: RoleSafe) => !!wallet && s.owners.includes(wallet);
  return (
    <div className="notice stack" data-testid="act-as">
      {safe && (
        <p>
          This program's admin is a Safe, <Address address={safe.address} explorerUrl={explorerUrl} />: {safe.threshold}{" "}
          of its {safe.owners.length} owners sign each of its transactions.{" "}
          <Link to="/program/safe">Its proposals</Link>
        </p>
      )}
      <ul className="plain stack" aria-label="Safes holding roles">
        {safes.map((s) => (
          <li key={s.address}>
            <Address address={s.address} explorerUrl={explorerUrl} /> ({s.threshold} of {s.owners.length} owners) holds{" "}
            {rolesInWords(s.roles)}.{owns(s) && <span className="badge ok">your wallet is an owner</span>}
          </li>
        ))}
      </ul>
      {safes.some(owns) ? (
        <label className="check">
          <input type="checkbox" checked={actAsSafe} onChange={(e) => setActAsSafe(e.target.checked)} />
          Act as the Safe: actions become proposals for its owners to sign (to the Safe that holds the role each action
          needs)
        </label>
      ) : (
        <p>Your wallet is not one of their owners: actions here are sent from your wallet, not proposed to a Safe.</p>
      )}
    </div>
  );
}

/** Under an action's form: the Safe it will be proposed to, and the role it acts with. */
export function ActingNote({ safe, role }: { safe: string; role: RoleOn }) {
  const { explorerUrl } = useDash();
  return (
    <p className="muted" data-testid="acting-safe">
      Proposed to the Safe <Address address={safe} explorerUrl={explorerUrl} />, which holds the{" "}
      {rolesInWords([role]).replace(" on the", " role on the")}.
    </p>
  );
}
