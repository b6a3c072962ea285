import { useEffect, useMemo, useState } from "react";
import { sdk } from "../api/client";
import { consoleApi } from "../api/console";
import { describeError, type Described } from "../api/errors";
import { useSession } from "../session";
import { useWallet } from "../wallet/wallet";
import { TxProvider } from "../components/TxDialog";
import { ErrorBox } from "../components/ui";
import { ChainLock } from "../wizard/Wizard";
import { DashContext, type Dash, type ProgramView } from "./context";
import { Overview } from "./Overview";
import { Allowlists } from "./Allowlists";
import { Campaigns } from "./Campaigns";
import { Roles } from "./Roles";
import { Redemption } from "./Redemption";

const TABS = [
  ["overview", "Overview", Overview],
  ["allowlists", "Allowlists", Allowlists],
  ["campaigns", "Campaigns", Campaigns],
  ["roles", "Roles", Roles],
  ["redemption", "Redemption", Redemption],
] as const;
type Tab = (typeof TABS)[number][0];

const tabFromHash = (): Tab => (TABS.find(([id]) => `#${id}` === window.location.hash)?.[0] ?? "overview") as Tab;

/** Step 9: runs the deployed program through the SDK; every write is signed by the connected wallet. */
export function Dashboard() {
  const { me } = useSession();
  const wallet = useWallet();
  // The server names the program (the account's own deploy); the dashboard never guesses one.
  const programId = me.wizard.programId ?? "";
  const client = useMemo(() => sdk(programId), [programId]);
  const [program, setProgram] = useState<ProgramView | null>(null);
  const [explorerUrl, setExplorerUrl] = useState<string | null>(null);
  const [error, setError] = useState<Described | null>(null);
  const [version, setVersion] = useState(0);
  const [tab, setTab] = useState<Tab>(tabFromHash);

  useEffect(() => {
    client.read.factory(programId).then(
      async (p) => {
        setProgram(p);
        const chains = await consoleApi.chains().catch(() => []);
        setExplorerUrl(chains.find((c) => String(c.chainId) === p.chainId)?.explorerUrl ?? null);
      },
      (e) => setError(describeError(e)),
    );
  }, [client, programId]);

  const dash = useMemo<Dash | null>(
    () =>
      program && {
        client,
        program,
        from: wallet.address,
        explorerUrl,
        version,
        bump: () => setVersion((v) => v + 1),
      },
    [client, program, wallet.address, explorerUrl, version],
  );

  const select = (t: Tab) => {
    setTab(t);
    history.replaceState(null, "", `#${t}`);
  };
  const onKey = (e: React.KeyboardEvent, i: number) => {
    const next = e.key === "ArrowRight" ? i + 1 : e.key === "ArrowLeft" ? i - 1 : null;
    if (next === null) return;
    const [id] = TABS[(next + TABS.length) % TABS.length];
    select(id);
    document.getElementById(`tab-${id}`)?.focus();
  };

  if (error) return <ErrorBox error={error} />;
  if (!dash) return <p className="progress">Loading your program…</p>;
  const Panel = TABS.find(([id]) => id === tab)![2];
  const wrongChain = wallet.chainId !== null && String(wallet.chainId) !== program!.chainId;

  return (
    <DashContext.Provider value={dash}>
      <TxProvider explorerUrl={explorerUrl}>
        <div className="dash-head row between">
          <h2>
            {program!.brand} <span className="muted">· chain {program!.chainId}</span>
          </h2>
        </div>
        {!wallet.address && (
          <div className="notice row between">
            <span>Connect your wallet to sign transactions.</span>
            <button onClick={() => wallet.connect().catch((e) => setError(describeError(e)))}>Connect wallet</button>
          </div>
        )}
        {wrongChain && (
          <div className="notice row between" role="alert">
            <span>
              Your wallet is on chain {wallet.chainId}; this program is on chain {program!.chainId}.
            </span>
            <button
              onClick={() => wallet.switchChain(Number(program!.chainId)).catch((e) => setError(describeError(e)))}
            >
              Switch chain
            </button>
          </div>
        )}
        <div role="tablist" aria-label="Dashboard sections" className="tabs">
          {TABS.map(([id, label], i) => (
            <button
              key={id}
              id={`tab-${id}`}
              role="tab"
              aria-selected={tab === id}
              aria-controls={`panel-${id}`}
              tabIndex={tab === id ? 0 : -1}
              onClick={() => select(id)}
              onKeyDown={(e) => onKey(e, i)}
            >
              {label}
            </button>
          ))}
        </div>
        <div role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`} className="tabpanel">
          <Panel />
        </div>
        <ChainLock />
      </TxProvider>
    </DashContext.Provider>
  );
}
