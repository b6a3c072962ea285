import { Suspense, useEffect, useMemo, useState } from "react";
import { NavLink, Navigate, useParams } from "react-router";
import { PointsApiError } from "@points/sdk";
import { sdk } from "../api/client";
import { consoleApi } from "../api/console";
import { describeError, type Described } from "../api/errors";
import { useSession } from "../session";
import { useWallet } from "../wallet/wallet";
import { TxProvider } from "../components/TxDialog";
import { ErrorBox } from "../components/ui";
import { NotFound } from "../NotFound";
import { DASHBOARD_PAGES } from "../pages";
import { DashContext, type Dash, type ProgramView } from "./context";
import { useProgramSafes } from "../safe/useProgramSafes";
import { adminSafe, safeFor } from "../safe/roleSafes";
import { ActAs } from "../safe/ActAs";
import { CustomerSearch } from "./customer/CustomerSearch";
import { useProgramTokenSymbol } from "./useTokenSymbol";
import { handled } from "../components/handled";
import { startOverviewReads } from "./overviewReads";

/** Pages that take a sub-path (/console/program/campaigns/<campaign>); elsewhere one is not found. */
const WITH_SUB = new Set(["campaigns", "safe", "customer"]);
/** Views below a sub-path: /console/program/campaigns/<id>/ledger. */
const WITH_VIEW: Record<string, string[]> = { campaigns: ["ledger"] };

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
  const [missing, setMissing] = useState(false);
  // On by default: an owner of a Safe holding roles acts for it unless it unticks "Act as the Safe".
  const [actAsSafe, setActAsSafe] = useState(true);
  const { page, sub, view } = useParams();
  const entry = DASHBOARD_PAGES.find((p) => p.path === page);
  // Where the dashboard opened, fixed at its mount: only then are the overview's reads started early.
  const [opensOnOverview] = useState(() => entry?.path === "overview");

  useEffect(() => {
    // Both at once, and the page shown with both: the explorer turns addresses into links, and
    // arriving after them it moved the page under the reader (layout shift).
    const chains = consoleApi.chains().catch(() => []);
    if (opensOnOverview && programId) startOverviewReads(client, programId);
    Promise.all([client.read.factory(programId), chains]).then(
      ([p, cs]) => {
        setExplorerUrl(cs.find((c) => String(c.chainId) === p.chainId)?.explorerUrl ?? null);
        setProgram(p);
      },
      (e) => (e instanceof PointsApiError && e.code === "NOT_FOUND" ? setMissing(true) : setError(describeError(e))),
    );
  }, [client, programId, opensOnOverview]);

  const safes = useProgramSafes(program, client, wallet, version);
  const tokenSymbol = useProgramTokenSymbol(program);
  const safe = adminSafe(safes);
  // Acting as a Safe only while the connected wallet is one of its owners.
  const mine = wallet.address;
  const asSafe = actAsSafe && !!mine && safes.some((s) => s.owners.includes(mine));
  const adminActs = asSafe && !!safe && safe.owners.includes(mine!);
  const dash = useMemo<Dash | null>(
    () =>
      program && {
        client,
        program,
        from: adminActs ? safe!.address : mine,
        acting: (needs) => (asSafe && safeFor(safes, mine, needs)) || { from: mine, safe: null, role: null },
        wallet: mine,
        safe,
        safes,
        actAsSafe: asSafe,
        setActAsSafe,
        explorerUrl,
        tokenSymbol,
        version,
        bump: () => setVersion((v) => v + 1),
      },
    [client, program, mine, safes, safe, asSafe, adminActs, explorerUrl, tokenSymbol, version],
  );

  if (me.wizard.step < 9) return <Navigate to="/setup" replace />;
  if (!entry || (sub !== undefined && !WITH_SUB.has(entry.path))) return <NotFound />;
  if (view !== undefined && !WITH_VIEW[entry.path]?.includes(view)) return <NotFound />;
  if (missing || !programId) return <NotFound what="This program" />;
  if (error) return <ErrorBox error={error} />;
  if (!dash) return <p className="progress">Loading your program…</p>;
  const Panel = entry.component;
  const wrongChain = wallet.chainId !== null && String(wallet.chainId) !== program!.chainId;

  return (
    <DashContext.Provider value={dash}>
      <TxProvider explorerUrl={explorerUrl}>
        <div className="dash-head">
          <h2>
            {program!.brand} <span className="muted">· chain {program!.chainId}</span>
          </h2>
          <CustomerSearch />
        </div>
        {!wallet.address && (
          <div className="notice row between">
            <span>Connect your wallet to sign transactions.</span>
            <button onClick={handled(() => wallet.connect(), setError)}>Connect wallet</button>
          </div>
        )}
        {wrongChain && (
          <div className="notice row between" role="alert">
            <span>
              Your wallet is on chain {wallet.chainId}; this program is on chain {program!.chainId}.
            </span>
            <button onClick={handled(() => wallet.switchChain(Number(program!.chainId)), setError)}>
              Switch chain
            </button>
          </div>
        )}
        <ActAs />
        <nav aria-label="Dashboard sections" className="tabs">
          {DASHBOARD_PAGES.map((p) => (
            <NavLink key={p.path} to={`/program/${p.path}`}>
              {p.label}
            </NavLink>
          ))}
        </nav>
        <section aria-label={entry.label} className="tabpanel">
          <Suspense fallback={<p className="progress">Loading {entry.label.toLowerCase()}…</p>}>
            <Panel />
          </Suspense>
        </section>
      </TxProvider>
    </DashContext.Provider>
  );
}
