import { Link } from "react-router";
import type { SafeTxAnswer } from "@points/schema";
import { Address } from "../components/format/Address";
import { CONTRACT_WORDS, roleWords } from "../dashboard/names";
import type { RoleOn } from "./roleSafes";

const ownersWord = (n: number) => (n === 1 ? "owner" : "owners");

/** Before proposing: the action runs from a Safe, so it waits for its owners' signatures. */
export function SafeReview({ safe, role }: { safe: SafeTxAnswer; role?: RoleOn }) {
  return (
    <p className="notice" role="note">
      This action runs from the Safe <Address address={safe.address} />
      {role && `, which holds the ${roleWords(role.role)} role on the ${CONTRACT_WORDS[role.contract]}`}: it is not sent
      now but stored as a proposal that {safe.threshold} of its {safe.owners.length} {ownersWord(safe.owners.length)}{" "}
      must sign, then any owner executes it.
    </p>
  );
}

/** After proposing: where the proposal is and how many signatures it still needs. */
export function Proposed({
  id,
  signed,
  safe,
  onOpen,
}: {
  id: string;
  signed: boolean;
  safe: SafeTxAnswer;
  onOpen(): void;
}) {
  const missing = safe.threshold - (signed ? 1 : 0);
  return (
    <div className="success" role="status">
      <p>
        <strong>Proposed to the Safe.</strong>{" "}
        {signed ? "Your signature is in. " : "Your wallet is not an owner, so it did not sign. "}
        {missing > 0
          ? `${missing} more ${missing === 1 ? "signature is" : "signatures are"} needed.`
          : "It can be executed."}
      </p>
      <p>
        <Link to={`/program/safe/${id}`} onClick={onOpen}>
          Open the proposal
        </Link>
      </p>
    </div>
  );
}
