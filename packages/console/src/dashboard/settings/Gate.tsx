import type { ReactNode } from "react";
import { Address } from "../../components/format/Address";
import type { useTx } from "../../components/TxDialog";
import { ActingNote } from "../../safe/ActAs";
import type { Acting, RoleOn } from "../../safe/roleSafes";
import { CONTRACT_WORDS, roleWords } from "../names";
import type { Blocker } from "../preflight/checks";

/** The roles the settings' changes take. */
export const MANAGER: RoleOn = { contract: "factory", role: "MANAGER_ROLE" };
export const ADMIN: RoleOn = { contract: "factory", role: "DEFAULT_ADMIN_ROLE" };
export const POINTS_ADMIN: RoleOn = { contract: "points", role: "DEFAULT_ADMIN_ROLE" };

/** Why a card offers no form: the role it takes, in words, and who lacks it. */
function NotYours({ role, who }: { role: RoleOn; who: string | null }) {
  return (
    <p className="muted" data-testid="settings-not-allowed">
      Changing this takes the {roleWords(role.role)} role on the {CONTRACT_WORDS[role.contract]};{" "}
      {who ? (
        <>
          <Address address={who} /> does not hold it.
        </>
      ) : (
        "connect a wallet that holds it."
      )}
    </p>
  );
}

export /** Shown while the roles are read, or in place of the form when the acting account lacks the role. */
function Gate({
  allowed,
  role,
  who,
  children,
}: {
  allowed: boolean | null;
  role: RoleOn;
  who: Acting;
  children: ReactNode;
}) {
  if (allowed === null) return <p className="progress">Checking your roles…</p>;
  if (!allowed) return <NotYours role={role} who={who.from} />;
  return (
    <>
      {who.safe && <ActingNote safe={who.safe.address} role={who.role!} />}
      {children}
    </>
  );
}

export /** A preflight's refusal at the form, with the access change that fixes it when the wallet may make it. */
function Blocked({
  blocker,
  id,
  onFixed,
  run,
}: {
  blocker: Blocker | null;
  id: string;
  onFixed(): void;
  run: ReturnType<typeof useTx>;
}) {
  if (!blocker) return null;
  return (
    <div className="error" role="alert" data-testid={`${id}-blocked`}>
      <p>{blocker.message}</p>
      {blocker.fix && (
        <button type="button" onClick={() => run({ ...blocker.fix!.job, onDone: onFixed })}>
          {blocker.fix.label}
        </button>
      )}
    </div>
  );
}
