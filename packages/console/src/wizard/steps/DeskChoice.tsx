import type { Wizard } from "@points/schema";
import { Choice } from "../../components/Choice";

/** The wizard's desk choice: a policy, or null for the deploy route's default (no deskPolicy sent). */
export type DeskChoice = Wizard["deskPolicy"];

/**
 * The choices in plain words (docs/deployment.md#redemption-desk). The first is what the deploy
 * route does when the request names no policy, so it is the default here too.
 */
export const DESK_CHOICES: { value: DeskChoice; key: string; label: string; means: string }[] = [
  {
    value: null,
    key: "later",
    label: "Decide later (default)",
    means:
      "The service's executor gets its role (EXECUTOR_ROLE) but does nothing yet; requesters finalize their own redemptions until you pick a policy on the dashboard's Redemption desk page.",
  },
  {
    value: "automatic",
    key: "automatic",
    label: "Automatic",
    means: "The executor gets its role and finalizes every redemption request once it is ready, in batches.",
  },
  {
    value: "manual",
    key: "manual",
    label: "Manual",
    means: "The executor gets its role and finalizes only the redemption requests a manager approves.",
  },
  {
    value: "off",
    key: "off",
    label: "Off",
    means:
      "The executor is left without its role, so it cannot finalize anything and requesters finalize their own redemptions. A manager (Manager role on the Factory) can grant the role later in the Roles tab.",
  },
];

/** The short name of a choice, for the review step. */
export const deskLabel = (v: DeskChoice) => DESK_CHOICES.find((c) => c.value === v)?.label ?? "Decide later (default)";

/** Radio buttons for the desk policy, each named with what it means; arrow keys move between them. */
export function DeskPolicyField({ value, onChange }: { value: DeskChoice; onChange: (v: DeskChoice) => void }) {
  return (
    <fieldset className="choices" aria-describedby="desk-policy-about">
      <legend>
        <strong>Redemption desk</strong>
      </legend>
      <p id="desk-policy-about" className="muted">
        When a holder redeems points for collateral, the request matures and must then be finalized. The service's
        executor wallet can do that for you. You can change this later on the dashboard's Redemption desk page.
      </p>
      {DESK_CHOICES.map((c) => (
        <Choice
          key={c.key}
          name="desk-policy"
          value={c.key}
          selected={value === c.value}
          onSelect={() => onChange(c.value)}
        >
          <strong>{c.label}</strong> <span className="muted">{c.means}</span>
        </Choice>
      ))}
    </fieldset>
  );
}
