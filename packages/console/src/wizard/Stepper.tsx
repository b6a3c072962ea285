export const STEPS = [
  "Sign in",
  "Connect wallet",
  "Organization",
  "Chain",
  "Token and brand",
  "Deploy",
  "Progress",
  "Contracts",
  "Dashboard",
] as const;

/** The nine steps of the onboarding wizard; the current one is announced as such. */
export function Stepper({ current }: { current: number }) {
  return (
    <nav aria-label="Onboarding steps" className="stepper">
      <ol>
        {STEPS.map((name, i) => {
          const n = i + 1;
          const state = n < current ? "done" : n === current ? "current" : "todo";
          return (
            <li key={name} className={state} aria-current={state === "current" ? "step" : undefined}>
              <span className="num" aria-hidden="true">
                {state === "done" ? "✓" : n}
              </span>
              <span className="name">{name}</span>
              {state === "done" && <span className="sr-only"> (done)</span>}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
