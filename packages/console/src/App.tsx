import { Suspense, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { BrowserRouter, Navigate, Route, Routes } from "react-router";
import { PointsApiError } from "@points/sdk";
import { consoleApi, type Me, type Wizard as WizardState } from "./api/console";
import { describeError, type Described } from "./api/errors";
import { WalletProvider, useWallet, short } from "./wallet/wallet";
import { SessionContext, type Session } from "./session";
import { ErrorBox } from "./components/ui";
import { handled } from "./components/handled";
import { SignIn } from "./wizard/SignIn";
import { NotFound } from "./NotFound";
import { preloadable } from "./components/preloadable";
// In the entry (a list of loaders, about 1 kB): a deep link fetches its page's chunk beside the
// dashboard's instead of after a chunk that names it.
import { DASHBOARD_PAGES } from "./pages";

// Route-level code splitting: the sign-in page loads neither the wizard nor the dashboard.
const wizardRoute = preloadable(() => import("./wizard/WizardRoute"), "WizardRoute");
const dashboard = preloadable(() => import("./dashboard/Dashboard"), "Dashboard");
const WizardRoute = wizardRoute.component;
const Dashboard = dashboard.component;

// A deep link into the wizard or the program (most likely a signed-in reload): fetch that page's
// chunks while /me answers, and show the page once both are there, with no loading step between
// (see components/preloadable). The sign-in page fetches neither.
const landing = typeof window === "undefined" ? "" : window.location.pathname;
const landingChunks: Promise<unknown> = (
  landing.startsWith("/console/program")
    ? Promise.all([
        dashboard.preload(),
        DASHBOARD_PAGES.find((p) => landing.startsWith(`/console/program/${p.path}`))?.preload(),
      ])
    : /^\/console\/setup(\/|$)/.test(landing)
      ? wizardRoute.preload()
      : Promise.resolve()
).catch(() => undefined);

/** Every place has its URL under /console/ (the router's basename); URLs hold a place, never a form's values. */
export function App() {
  return (
    <BrowserRouter basename="/console">
      <WalletProvider>
        <Shell />
      </WalletProvider>
    </BrowserRouter>
  );
}

/** /console/ itself: the wizard until the program exists, then the program's overview. */
function Home({ step }: { step: number }) {
  return <Navigate to={step >= 9 ? "/program/overview" : "/setup"} replace />;
}

function Shell() {
  const [me, setMe] = useState<Me | null | undefined>(undefined);
  const [error, setError] = useState<Described | null>(null);
  const wallet = useWallet();
  // Wizard saves go out one at a time, in the order asked: on a slow network the page's own "step 2" save (made as
  // the wizard opens) could otherwise land after a quick "Continue" and send the person back a step.
  const saves = useRef<Promise<unknown>>(Promise.resolve());

  const load = useCallback(async () => {
    try {
      // ethers is not awaited: the wallet shows its account once it is there (wallet/wallet.tsx).
      const [signedIn] = await Promise.all([consoleApi.me(), landingChunks]);
      setMe(signedIn);
      setError(null);
    } catch (e) {
      if (e instanceof PointsApiError && e.code === "UNAUTHORIZED") setMe(null);
      else setError(describeError(e));
    }
  }, []);
  useEffect(() => void load(), [load]);

  const session = useMemo<Session | null>(() => {
    if (!me) return null;
    return {
      me,
      async save(patch: Partial<WizardState>) {
        const saved = saves.current.catch(() => undefined).then(() => consoleApi.saveWizard(patch));
        saves.current = saved;
        const wizard = await saved;
        setMe((m) => (m ? { ...m, wizard, wallet: wizard.wallet ?? m.wallet } : m));
        return wizard;
      },
      async signOut() {
        await consoleApi.logout();
        setMe(null);
      },
      async restart() {
        await consoleApi.restart();
        await consoleApi.logout();
        setMe(null);
      },
      async proveWallet(address: string) {
        const provider = wallet.provider();
        if (!provider) throw new Error("No browser wallet found. Install one (any EIP-1193 wallet) and reload.");
        // Sign-In with Ethereum (and its parser) loads only when a wallet is proven.
        const { proveWallet } = await import("./wallet/siwe");
        const provenWallet = await proveWallet(await provider.getSigner(address));
        setMe((m) => (m ? { ...m, provenWallet } : m));
        return provenWallet;
      },
    };
  }, [me, wallet]);

  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <span className="logo" aria-hidden="true">
          ◆
        </span>
        <h1>Points console</h1>
        {session && <Account session={session} onError={setError} />}
      </header>
      <main id="main" tabIndex={-1}>
        <ErrorBox error={error} />
        {me === undefined && !error && <p className="progress">Loading…</p>}
        {/* Signed out at any URL: sign in there, and land on the same place after. */}
        {me === null && <SignIn onSignedIn={load} />}
        {session && (
          <SessionContext.Provider value={session}>
            <Suspense fallback={<p className="progress">Loading…</p>}>
              <Routes>
                <Route path="/" element={<Home step={session.me.wizard.step} />} />
                <Route path="/setup/:step?" element={<WizardRoute />} />
                <Route path="/program" element={<Navigate to="/program/overview" replace />} />
                <Route path="/program/:page/:sub?" element={<Dashboard />} />
                <Route path="/program/:page/:sub/:view" element={<Dashboard />} />
                <Route path="*" element={<NotFound />} />
              </Routes>
            </Suspense>
          </SessionContext.Provider>
        )}
      </main>
    </>
  );
}

function Account({ session, onError }: { session: Session; onError(error: Described): void }) {
  const wallet = useWallet();
  const [busy, setBusy] = useState(false);
  return (
    <div className="account">
      <span className="muted" title="Signed in as">
        {session.me.email}
      </span>
      {wallet.address && (
        <span className="chip" title={`Wallet ${wallet.address} on chain ${wallet.chainId}`}>
          {short(wallet.address)}
        </span>
      )}
      <button
        disabled={busy}
        onClick={handled(async () => {
          setBusy(true);
          await session.signOut().finally(() => setBusy(false));
        }, onError)}
      >
        Sign out
      </button>
    </div>
  );
}
