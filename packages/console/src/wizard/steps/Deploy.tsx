import { useEffect, useState, type FormEvent } from "react";
import { useSession } from "../../session";
import { useWallet } from "../../wallet/wallet";
import { consoleApi, type ChainInfo, type Organization, type TokenConfig } from "../../api/console";
import { onboardingApi } from "../../api/onboarding";
import { Field, isAddress } from "../../components/ui";
import { StepNav, useSaving } from "./shared";
import { deskLabel } from "./DeskChoice";
import { chainWords, withDetail } from "./reviewWords";

/** Step 6: review everything, then queue the deploy (POST /api/v1/client-onboarding/deploy). */
export function Deploy() {
  const { me, save, proveWallet } = useSession();
  const wallet = useWallet();
  const s = useSaving();
  const w = me.wizard;
  const [collateral, setCollateral] = useState("");
  const [chain, setChain] = useState<ChainInfo | null>(null);
  useEffect(() => {
    consoleApi.chains().then(
      (list) => setChain(list.find((c) => c.chainId === w.chainId) ?? null),
      () => undefined,
    );
  }, [w.chainId]);
  const collateralError = collateral && !isAddress(collateral) ? "Must be a token address (0x + 40 hex digits)." : null;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (collateralError) return;
    void s.run(async () => {
      const { taskId } = await onboardingApi.deploy(
        {
          brand: w.brand!,
          organization: w.organization as Organization,
          chainId: w.chainId!,
          token: w.token as TokenConfig,
          deployer: w.wallet!,
          // Not chosen: omitted, so the route's own default applies (EXECUTOR_ROLE granted, desk off).
          ...(w.deskPolicy ? { deskPolicy: w.deskPolicy } : {}),
          ...(collateral ? { collateral: { asset: collateral.trim() } } : {}),
        },
        // One task per account, chain and brand: a repeated submit returns the same task.
        { idempotencyKey: `console:${me.email}:${w.chainId}:${w.brand}` },
      );
      await save({ taskId, step: 7 });
    });
  };

  return (
    <form className="panel stack" aria-labelledby="deploy-title" onSubmit={submit} noValidate>
      <h2 id="deploy-title">Deploy your program</h2>
      <p>
        One transaction creates your program's contracts. After it starts, the chain cannot change (except by signing
        out and restarting).
      </p>
      <dl className="kv">
        <dt>Organization</dt>
        <dd>{w.organization?.name || "not set"}</dd>
        <dt>Chain</dt>
        <dd data-testid="review-chain">{chainWords(chain?.name, w.chainId)}</dd>
        <dt>Token</dt>
        <dd data-testid="review-token">{withDetail(w.token?.name, w.token?.symbol)}</dd>
        <dt>Brand</dt>
        <dd>{w.brand ? <code>{w.brand}</code> : "not set"}</dd>
        <dt>Redemption desk</dt>
        <dd data-testid="review-desk-policy">{deskLabel(w.deskPolicy)}</dd>
        <dt>Admin wallet</dt>
        <dd>{w.wallet ? <code>{w.wallet}</code> : "not set"}</dd>
      </dl>
      {wallet.address && w.wallet && wallet.address !== w.wallet && (
        <p className="notice">The connected wallet differs from the admin wallet saved in step 2.</p>
      )}
      {me.provenWallet !== w.wallet && (
        <div className="error" role="alert" aria-label="Wallet not proven">
          <strong>Wallet not proven.</strong>
          <p>
            The admin wallet <code>{w.wallet}</code> has not signed the Sign-In with Ethereum message in this session.
            Nobody can deploy with a wallet they have not proven: connect it and sign (no transaction, no fee).
          </p>
          <button
            type="button"
            disabled={s.busy || !wallet.available}
            onClick={() =>
              void s.run(async () => {
                await proveWallet(wallet.address ?? (await wallet.connect()));
              })
            }
          >
            Sign in with Ethereum
          </button>
        </div>
      )}
      <Field
        label="Collateral token address (optional)"
        value={collateral}
        onChange={(e) => setCollateral(e.target.value)}
        error={collateralError}
        hint="The stablecoin that backs your points. Leave empty on a local chain: a mock 6-decimal stablecoin is deployed."
      />
      {s.errorBox}
      <StepNav
        primary={s.busy ? "Starting…" : "Deploy"}
        busy={s.busy}
        back={() => void s.run(() => save({ step: 5 }))}
      />
    </form>
  );
}
