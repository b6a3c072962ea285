import { useEffect, useState, type FormEvent } from "react";
import { useSession } from "../../session";
import { consoleApi, type ChainInfo } from "../../api/console";
import { Choice } from "../../components/Choice";
import { StepNav, useSaving } from "./shared";

/** Step 4: one of the server's configured chains; test networks are recommended first. */
export function ChooseChain() {
  const { me, save } = useSession();
  const s = useSaving();
  const [chains, setChains] = useState<ChainInfo[] | null>(null);
  const [chainId, setChainId] = useState<number | null>(me.wizard.chainId);
  const locked = !!me.wizard.taskId;

  useEffect(() => {
    void s.run(async () => {
      const list = await consoleApi.chains();
      setChains(list);
      // A single configured chain needs no choice; otherwise preselect a recommended test network.
      setChainId((c) => c ?? (list.find((x) => x.recommended ?? x.testnet) ?? list[0])?.chainId ?? null);
    });
  }, []);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (chainId === null) return s.setError({ title: "Choose a chain." });
    void s.run(() => save({ chainId, step: 5 }));
  };

  return (
    <form className="panel stack" aria-labelledby="chain-title" onSubmit={submit}>
      <h2 id="chain-title">Choose the chain</h2>
      <p>Your program's contracts live on this chain. Deploy to a test network first to try everything safely.</p>
      {chains === null && !s.error && <p className="progress">Loading chains…</p>}
      {chains && (
        <fieldset className="choices" disabled={locked}>
          <legend className="sr-only">Chain</legend>
          {chains.map((c) => (
            <Choice
              key={c.chainId}
              name="chain"
              value={c.chainId}
              selected={chainId === c.chainId}
              onSelect={() => setChainId(c.chainId)}
            >
              <strong>{c.name}</strong> <span className="muted">chain id {c.chainId}</span>
              <span className="badges">
                {c.testnet ? <span className="badge ok">Test network</span> : <span className="badge">Mainnet</span>}
                {(c.recommended ?? c.testnet) && <span className="badge accent">Recommended for a first deploy</span>}
                {!c.explorerUrl && <span className="badge">No explorer</span>}
              </span>
            </Choice>
          ))}
        </fieldset>
      )}
      {s.errorBox}
      <StepNav
        primary="Continue"
        busy={s.busy}
        disabled={chainId === null}
        back={() => void s.run(() => save({ step: 3 }))}
      />
    </form>
  );
}
