import { useCallback, useEffect, useMemo, useState } from "react";
import { PointsApiError } from "@points/sdk";
import { consoleApi, type Me, type Wizard as WizardState } from "./api/console";
import { describeError, type Described } from "./api/errors";
import { WalletProvider, useWallet, short } from "./wallet/wallet";
import { SessionContext, type Session } from "./session";
import { ErrorBox } from "./components/ui";
import { SignIn } from "./wizard/SignIn";
import { Wizard } from "./wizard/Wizard";
import { Dashboard } from "./dashboard/Dashboard";
import { proveWallet } from "./wallet/siwe";

export function App() {
  return (
    <WalletProvider>
      <Shell />
    </WalletProvider>
  );
}

function Shell() {
  const [me, setMe] = useState<Me | null | undefined>(undefined);
  const [error, setError] = useState<Described | null>(null);
  const wallet = useWallet();

  const load = useCallback(async () => {
    try {
      setMe(await consoleApi.me());
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
        const wizard = await consoleApi.saveWizard(patch);
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
        {session && <Account session={session} />}
      </header>
      <main id="main" tabIndex={-1}>
        <ErrorBox error={error} />
        {me === undefined && !error && <p className="progress">Loading…</p>}
        {me === null && <SignIn onSignedIn={load} />}
        {session && (
          <SessionContext.Provider value={session}>
            {session.me.wizard.step >= 9 ? <Dashboard /> : <Wizard />}
          </SessionContext.Provider>
        )}
      </main>
    </>
  );
}

function Account({ session }: { session: Session }) {
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
        onClick={async () => {
          setBusy(true);
          await session.signOut().finally(() => setBusy(false));
        }}
      >
        Sign out
      </button>
    </div>
  );
}
