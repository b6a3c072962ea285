import { useState, type FormEvent } from "react";
import { PointsApiError } from "@points/sdk";
import { consoleApi } from "../api/console";
import { describeError, type Described } from "../api/errors";
import { ErrorBox, Field } from "../components/ui";
import { Stepper } from "./Stepper";

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Step 1: e-mail, then the 6-digit code the API sent (or, in development, put in the dev mailbox). */
export function SignIn({ onSignedIn }: { onSignedIn(): Promise<void> }) {
  const [email, setEmail] = useState("");
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [code, setCode] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Described | null>(null);
  const [emailError, setEmailError] = useState<string | null>(null);

  // request and verify never reject: a failure shows in the ErrorBox.
  const request = async (e: FormEvent) => {
    e.preventDefault();
    const address = email.trim().toLowerCase();
    if (!EMAIL.test(address)) return setEmailError("Enter an e-mail address like name@example.com.");
    setEmailError(null);
    setBusy(true);
    setError(null);
    try {
      await consoleApi.requestCode(address);
      setSentTo(address);
    } catch (err) {
      setError(describeError(err));
    } finally {
      setBusy(false);
    }
  };

  const verify = async (e: FormEvent) => {
    e.preventDefault();
    if (!/^\d{6}$/.test(code)) return setError({ title: "The code has 6 digits." });
    setBusy(true);
    setError(null);
    try {
      await consoleApi.verify(sentTo!, code);
      await onSignedIn();
    } catch (err) {
      const left = err instanceof PointsApiError ? (err.details as { attemptsLeft?: number })?.attemptsLeft : undefined;
      const d = describeError(err);
      setError(left === undefined ? d : { title: "Wrong code", detail: `${left} attempt(s) left.` });
      setCode("");
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Stepper current={1} />
      <section className="panel" aria-labelledby="signin-title">
        <h2 id="signin-title">Sign in</h2>
        {!sentTo ? (
          <form onSubmit={(e) => void request(e)} className="stack" noValidate>
            <p>We send a 6-digit code to your e-mail address. No password needed.</p>
            <Field
              label="E-mail address"
              type="email"
              autoComplete="email"
              required
              value={email}
              error={emailError}
              onChange={(e) => setEmail(e.target.value)}
            />
            <ErrorBox error={error} />
            <div className="row">
              <button className="primary" type="submit" disabled={busy}>
                {busy ? "Sending…" : "Send code"}
              </button>
            </div>
          </form>
        ) : (
          <form onSubmit={(e) => void verify(e)} className="stack" noValidate>
            <p>
              We sent a code to <strong>{sentTo}</strong>. It expires in 10 minutes.
            </p>
            <Field
              label="6-digit code"
              inputMode="numeric"
              autoComplete="one-time-code"
              pattern="[0-9]{6}"
              maxLength={6}
              required
              value={code}
              onChange={(e) => setCode(e.target.value.replace(/\D/g, ""))}
              hint={
                <>
                  Running locally (<code>pnpm start</code>, no SMTP)? No e-mail is sent: open{" "}
                  <a href="/console/dev/mailbox" target="_blank" rel="noopener noreferrer">
                    the dev mailbox
                  </a>{" "}
                  on this machine to read the code.
                </>
              }
            />
            <ErrorBox error={error} />
            <div className="row">
              <button className="primary" type="submit" disabled={busy}>
                {busy ? "Checking…" : "Sign in"}
              </button>
              <button type="button" onClick={() => (setSentTo(null), setCode(""), setError(null))}>
                Use another e-mail
              </button>
            </div>
          </form>
        )}
      </section>
    </>
  );
}
