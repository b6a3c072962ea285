import type { FormEvent } from "react";
import { useSession } from "../../session";
import type { Organization as OrganizationFields } from "../../api/console";
import { useWallet } from "../../wallet/wallet";
import { Field } from "../../components/ui";
import { StepNav, useSaving } from "./shared";
import { text, url } from "./validate";
import { useStepFields } from "./fields";

/** Step 2: the injected wallet; its address receives every role of the new program. */
export function ConnectWallet() {
  const { me, save, proveWallet } = useSession();
  const wallet = useWallet();
  const s = useSaving();
  const saved = me.wizard.wallet;
  const proven = !!wallet.address && me.provenWallet === wallet.address;

  // Connecting is proving: the wallet signs a Sign-In with Ethereum message for this session.
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void s.run(async () => {
      const address = wallet.address ?? (await wallet.connect());
      if (me.provenWallet !== address) await proveWallet(address);
      await save({ wallet: address, step: 3 });
    });
  };

  return (
    <form className="panel stack" aria-labelledby="wallet-title" onSubmit={submit}>
      <h2 id="wallet-title">Connect your wallet</h2>
      <p>
        The wallet you connect becomes the program's administrator: it receives every initial role (admin, manager,
        pauser and the campaign roles). Use a wallet you control; you can move the admin role to a multisig later.
      </p>
      {!wallet.available && (
        <p className="error" role="alert">
          No browser wallet found. Install an EIP-1193 wallet extension and reload this page.
        </p>
      )}
      {wallet.address ? (
        <dl className="kv">
          <dt>Connected account</dt>
          <dd>
            <code>{wallet.address}</code>
          </dd>
          <dt>Wallet chain id</dt>
          <dd>{wallet.chainId ?? "unknown"}</dd>
          <dt>Ownership</dt>
          <dd>
            <WalletProof proven={proven} />
          </dd>
        </dl>
      ) : (
        <div>
          <button
            type="button"
            disabled={!wallet.available || s.busy}
            onClick={() => void s.run(() => wallet.connect())}
          >
            Connect wallet
          </button>
        </div>
      )}
      {saved && wallet.address && saved !== wallet.address && (
        <p className="notice">
          Your saved wallet was <code>{saved}</code>; continuing replaces it with the connected account.
        </p>
      )}
      {s.errorBox}
      <StepNav primary="Continue" busy={s.busy} disabled={!wallet.address} />
    </form>
  );
}

/** Whether this session proved the wallet (Sign-In with Ethereum); a deploy needs it. */
export function WalletProof({ proven }: { proven: boolean }) {
  return proven ? (
    <span className="ok-text" data-testid="wallet-proof">
      ✓ Wallet proven for this session
    </span>
  ) : (
    <span className="error-text" data-testid="wallet-proof">
      Wallet not proven: continuing asks your wallet to sign a Sign-In with Ethereum message (no transaction, no fee).
    </span>
  );
}

/** Step 3: the organization behind the program. */
export function Organization() {
  const { me, save } = useSession();
  const s = useSaving();
  const form = useStepFields<OrganizationFields>({
    name: "",
    website: "",
    description: "",
    ...me.wizard.organization,
  });
  const org = form.values;
  const errors = { name: text(org.name, 200), website: url(org.website), description: text(org.description, 2000) };
  const bind = form.bind(errors);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!form.submitted(errors)) return s.setError({ title: "Check the highlighted fields." });
    void s.run(() => save({ organization: form.trimmed(), step: 4 }));
  };

  return (
    <form className="panel stack" aria-labelledby="org-title" onSubmit={submit} noValidate>
      <h2 id="org-title">Your organization</h2>
      <Field label="Organization name" required {...bind("name")} />
      <Field label="Website" type="url" required placeholder="https://example.com" {...bind("website")} />
      <Field label="Description" textarea required {...bind("description")} />
      {s.errorBox}
      <StepNav primary="Continue" busy={s.busy} back={() => void s.run(() => save({ step: 2 }))} />
    </form>
  );
}
