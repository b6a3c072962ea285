import { useEffect, useRef, useState } from "react";
import { useSession } from "../session";
import type { Described } from "../api/errors";
import { ErrorBox } from "../components/ui";
import { Stepper } from "./Stepper";
import { ConnectWallet, Organization } from "./steps/Profile";
import { ChooseChain } from "./steps/Chain";
import { TokenAndBrand } from "./steps/Token";
import { Deploy } from "./steps/Deploy";
import { Progress } from "./steps/Progress";
import { Contracts } from "./steps/Contracts";
import { handled } from "../components/handled";

/** Steps 2-8; the server's wizard.step says which one shows, so a new sign-in resumes there. */
export function Wizard() {
  const { me, save } = useSession();
  const step = Math.max(1, me.wizard.step);

  // Signing in completes step 1, once: `save` changes with every session change (a wallet proof, say), and a second
  // "step 2" sent after the person's own Continue would send them back a step.
  const completedSignIn = useRef(false);
  useEffect(() => {
    if (step !== 1 || completedSignIn.current) return;
    completedSignIn.current = true;
    void save({ step: 2 });
  }, [step, save]);

  return (
    <>
      <Stepper current={step} />
      {me.wizard.taskId && <ChainLock />}
      {step <= 2 && <ConnectWallet />}
      {step === 3 && <Organization />}
      {step === 4 && <ChooseChain />}
      {step === 5 && <TokenAndBrand />}
      {step === 6 && <Deploy />}
      {step === 7 && <Progress />}
      {step === 8 && <Contracts />}
    </>
  );
}

/** Once a deploy has started the chain is fixed; the way out is visible, and asks first. */
export function ChainLock() {
  const { me, restart } = useSession();
  const [asking, setAsking] = useState(false);
  const [error, setError] = useState<Described | null>(null);
  return (
    <aside className="lock" aria-label="Chain locked">
      <p>
        <strong>Chain locked.</strong> A deploy has started, so the chain (id {me.wizard.chainId}) is locked. To deploy
        on another chain, sign out and restart the wizard.
      </p>
      {!asking ? (
        <button onClick={() => setAsking(true)}>Sign out and restart</button>
      ) : (
        <div className="row" role="group" aria-label="Confirm restart">
          <span>This clears your wizard progress (a deployed program stays on chain).</span>
          <button className="danger" onClick={handled(restart, setError)}>
            Yes, sign out and restart
          </button>
          <button onClick={() => setAsking(false)}>Cancel</button>
        </div>
      )}
      <ErrorBox error={error} />
    </aside>
  );
}
