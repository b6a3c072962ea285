import { Navigate, useParams } from "react-router";
import { useSession } from "../session";
import { NotFound } from "../NotFound";
import { Wizard } from "./Wizard";

/** URL segments of steps 2-8 under /console/setup/ (step 1 is signing in, step 9 the dashboard). */
export const STEP_PATHS = ["", "", "wallet", "organization", "chain", "token", "deploy", "progress", "contracts"];

/**
 * /console/setup/:step. The server's wizard decides the step (see Wizard); the URL follows it, so
 * reload and deep links land on the step the account is really at, and a link never skips one.
 */
export function WizardRoute() {
  const { me } = useSession();
  const { step } = useParams();
  if (me.wizard.step >= 9) return <Navigate to="/program/overview" replace />;
  if (step !== undefined && !STEP_PATHS.includes(step)) return <NotFound />;
  const current = STEP_PATHS[Math.max(2, me.wizard.step)];
  if (step !== current) return <Navigate to={`/setup/${current}`} replace />;
  return <Wizard />;
}
