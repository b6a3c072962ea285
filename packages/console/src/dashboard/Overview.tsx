import { CONTRACT_ROLES } from "@points/contracts/program";
import { useWallet } from "../wallet/wallet";
import { durationWords } from "../components/format/duration";
import { CONTRACT_WORDS, heldRoleLines } from "./nameWords";
import { OnChainName } from "./names";
import { notVerifiedReason, notVerifiedSummary } from "../components/verificationWords";
import { AddressLink, Card, ErrorBox } from "../components/ui";
import { ActionForm } from "./ActionForm";
import { pausedStates, programContracts } from "./chain";
import { useDash, useLoad } from "./context";
import { SP_DECIMALS, fmt } from "./units";
import { tokenAmount, tokenWord } from "./tokenSymbol";
import { useTokenSymbol } from "./useTokenSymbol";
import { TestCollateral } from "./testCollateral/TestCollateral";
import { mintSpCheck } from "./preflight/programChecks";
import { whenRunning } from "./preflight/paused";
import { lazy, Suspense } from "react";
import { useWhenVisible } from "../components/useWhenVisible";
import { takeOverviewRead } from "./overviewReads";
import { ReleaseVerification, VerificationState } from "../components/Verification";

// The chart library loads with the pictures, after the page (src/dashboard/charts).
const ProgramCharts = lazy(() => import("./charts/ProgramCharts"));

export function Overview() {
  const { client, program, from, explorerUrl } = useDash();
  const wallet = useWallet();
  // Pause states are read through the wallet's RPC, only when it is on the program's chain.
  const chainReader = () => (String(wallet.chainId) === program.chainId ? wallet.provider() : null);
  const symbol = useTokenSymbol();
  const state = useLoad(() => takeOverviewRead(client, program.id, "state") ?? client.read.factoryState(), []);
  const balance = useLoad(async () => (from ? client.read.balance(from) : null), [from]);
  const paused = useLoad(async () => {
    const provider = wallet.provider();
    if (!provider || String(wallet.chainId) !== program.chainId) return null;
    return pausedStates(provider, program);
  }, [wallet.chainId]);
  const roles = useLoad(async () => {
    if (!from) return [];
    const checks = programContracts(program).flatMap(([c]) => CONTRACT_ROLES[c].map((r) => [c, r] as const));
    const results = await Promise.all(checks.map(([c, r]) => client.roles.check(c, r, from)));
    return heldRoleLines(checks.filter((_, i) => results[i]!.hasRole).map(([contract, role]) => ({ contract, role })));
  }, [from]);
  const verification = useLoad(
    () => takeOverviewRead(client, program.id, "verification") ?? client.read.verification(program.id),
    [],
  );
  const s = state.value;
  const firstAsset = s?.assets[0];
  const [picturesShown, picturesRef] = useWhenVisible<HTMLDivElement>();

  // The cards appear once the reads that size them have answered: the supply's rows and each
  // contract's verification line, filled in later, pushed the cards below them down the page.
  const settled = (r: { value: unknown; error: unknown; loading: boolean }) =>
    !r.loading || r.value !== null || r.error !== null;
  if (!settled(state) || !settled(verification)) return <p className="progress">Loading the overview…</p>;

  return (
    <div className="cards">
      <Card title="Contracts">
        <table className="table">
          <caption className="sr-only">Program contracts</caption>
          <tbody>
            {programContracts(program).map(([name, addr]) => (
              <tr key={name}>
                <th scope="row">
                  <OnChainName words={CONTRACT_WORDS[name]} onChain={name} />{" "}
                  {paused.value?.[name] === undefined ? null : paused.value[name] ? (
                    <span className="badge bad">paused</span>
                  ) : (
                    <span className="badge ok">running</span>
                  )}
                </th>
                <td>
                  <AddressLink address={addr} explorerUrl={explorerUrl} />{" "}
                  {verification.value && notVerifiedReason(verification.value, name) === null && (
                    <VerificationState view={verification.value} contract={name} />
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {verification.value &&
          notVerifiedSummary(
            verification.value,
            programContracts(program).map(([c]) => [c, CONTRACT_WORDS[c]]),
          ).map((line) => (
            <p key={line} className="muted" data-testid="not-verified">
              {line}
            </p>
          ))}
        {!explorerUrl && <p className="muted">Local chain, no explorer.</p>}
        <ReleaseVerification view={verification.value} />
      </Card>
      <Card title="Supply and collateral">
        <ErrorBox error={state.error} />
        {s && (
          <dl className="kv">
            <dt>{symbol === null ? "Supply" : `${symbol} supply`}</dt>
            <dd data-testid="sp-supply">{tokenAmount(s.totalSupply, SP_DECIMALS, symbol)}</dd>
            {s.assets.map((a) => (
              <FragmentRow key={a.asset} label={`Collateral ${a.symbol}`}>
                {fmt(a.collateral, a.decimals)} {a.symbol}
                {a.pegged === false && <span className="badge bad">off peg</span>}
              </FragmentRow>
            ))}
            <dt>Basket mode</dt>
            <dd>{s.basketMode ? `on${s.basketModeForced ? " (forced by a manager)" : ""}` : "off"}</dd>
            <dt>Factory</dt>
            <dd>{s.paused ? <span className="badge bad">paused</span> : <span className="badge ok">running</span>}</dd>
            <dt>Points token</dt>
            <dd>
              {s.pointsPaused ? <span className="badge bad">paused</span> : <span className="badge ok">running</span>}{" "}
              {s.transferRestricted ? "transfers restricted to the allowlist" : "transfers open"}
            </dd>
            <dt>Fees</dt>
            <dd>
              mint {s.mintFeeBps / 100}% · redeem {s.redeemFeeBps / 100}%
            </dd>
            <dt>Redeem delay</dt>
            <dd data-testid="overview-redeem-delay">{durationWords(s.redeemDelay)}</dd>
          </dl>
        )}
      </Card>
      <Card title="Your wallet">
        {!from ? (
          <p className="muted">No wallet connected.</p>
        ) : (
          <dl className="kv">
            <dt>Account</dt>
            <dd>
              <code className="addr">{from}</code>
            </dd>
            <dt>{symbol === null ? "Balance" : `${symbol} balance`}</dt>
            <dd data-testid="sp-balance">
              {balance.value ? tokenAmount(balance.value.balance, SP_DECIMALS, symbol) : "…"}
            </dd>
            <dt>Roles</dt>
            <dd>
              {roles.loading && !roles.value ? (
                "checking…"
              ) : roles.value && roles.value.length ? (
                <ul className="plain" aria-label="Your roles">
                  {roles.value.map((r) => (
                    <li key={r}>{r}</li>
                  ))}
                </ul>
              ) : (
                "none"
              )}
            </dd>
          </dl>
        )}
        <ErrorBox error={roles.error ?? balance.error} />
      </Card>
      {firstAsset && <TestCollateral asset={firstAsset} />}
      {firstAsset && (
        <Card title={`Mint ${tokenWord(symbol)}`}>
          <p className="muted">
            Deposit collateral, receive {tokenWord(symbol)} (needs the mint allowlist, and the receiver on the transfer
            allowlist while transfers are restricted). An approval of the collateral comes first when needed.
          </p>
          <ActionForm
            title={`Mint ${tokenWord(symbol)} from collateral`}
            submit={`Mint ${tokenWord(symbol)}`}
            idPrefix="mint-sp"
            check={whenRunning(
              chainReader,
              program,
              ["factory", "points"],
              "this mint",
              mintSpCheck(
                client,
                () => wallet.provider(),
                firstAsset,
                async () => (s ?? (await client.read.factoryState())).transferRestricted,
              ),
            )}
            fields={[
              {
                name: "amount",
                label: `Collateral amount (${firstAsset.symbol})`,
                kind: "units",
                decimals: firstAsset.decimals,
              },
              { name: "receiver", label: "Receiver (default: you)", kind: "address", optional: true },
            ]}
            build={(v, from) =>
              client.build.mint({ asset: firstAsset.asset, amount: v.amount, receiver: v.receiver }, { from })
            }
          />
        </Card>
      )}
      {/* Only once the cards above have their data: until then this would sit in view. */}
      {s && (
        <div className="wide" ref={picturesRef} data-testid="pictures">
          {picturesShown ? (
            <Suspense fallback={<p className="progress">Loading the pictures…</p>}>
              <ProgramCharts asset={s.assets[0]} />
            </Suspense>
          ) : (
            <p className="muted">The program's pictures load here when you scroll to them.</p>
          )}
        </div>
      )}
    </div>
  );
}

function FragmentRow({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </>
  );
}
