import { lazy, Suspense, useState, type FormEvent } from "react";
import { useTx } from "../components/TxDialog";
import { Card, ErrorBox, Field, isAddress, Table } from "../components/ui";
import { ActionForm, type FieldSpec } from "./ActionForm";
import { useDash, useLoad } from "./context";
import { SP_DECIMALS } from "./units";
import { PENDING_SYMBOL, tokenAmount } from "./tokenSymbol";
import { useTokenSymbol } from "./useTokenSymbol";
import { UserText } from "../components/format/UserText";
import { escapeHidden } from "../components/format/text";
import { CampaignMoney } from "./money/CampaignMoney";
import { closeCheck, fundCheck, settleCheck } from "./preflight/programChecks";
import { closingParties, vaultUnallocated } from "./preflight/chainReads";
import { useWallet } from "../wallet/wallet";
import { NEEDS } from "../safe/roleSafes";
import { unavailableActions } from "./campaignActions";
import { pausedStates } from "./chain";
import { Tabs } from "../components/Tabs";
import { Address } from "../components/format/Address";
import { accountName, metadataFields } from "./campaignFields";
import { verifiedLabel } from "./campaignLabel";

// The chart library loads with the picture, after the page (src/dashboard/charts).
const CampaignCharts = lazy(() => import("./charts/CampaignCharts"));

const HOLDER: FieldSpec = { name: "holder", label: "Holder", kind: "address" };
const AMOUNT: FieldSpec = { name: "amount", label: "Amount", kind: "sp" };
const PSP_AMOUNT: FieldSpec = { name: "amount", label: "Amount", kind: "psp" };
const METADATA: FieldSpec = { name: "metadata", label: "Metadata", kind: "text", optional: true };
const ACCOUNT_ALLOWED: FieldSpec[] = [
  { name: "account", label: "Account", kind: "address" },
  { name: "allowed", label: "Allowed", kind: "bool" },
];

/** One pSP operation in its own card; one the chain would refuse says why instead of offering its form. */
function ActionCard({
  card,
  unavailable,
  ...form
}: { card: string; unavailable?: string } & Parameters<typeof ActionForm>[0]) {
  return (
    <Card title={card}>
      {unavailable ? (
        <p className="muted" role="note" data-testid={`${form.idPrefix}-unavailable`}>
          {unavailable}
        </p>
      ) : (
        <ActionForm {...form} />
      )}
    </Card>
  );
}

/**
 * One campaign: its budget and status, and every pSP operation on it (`/studio/sdk/v1/tx/psp/*`),
 * grouped in tabs (pSP operations, allowlists, minters, admin) whose choice is the URL's `?tab=`.
 */
export function CampaignDetail({ id, name, minters }: { id: string; name?: string; minters: string[] }) {
  const { client, program, from, bump, explorerUrl } = useDash();
  const symbol = useTokenSymbol();
  const sp = (v: string) => tokenAmount(v, SP_DECIMALS, symbol);
  const wallet = useWallet();
  const run = useTx();
  const v = client.vault;
  const campaign = useLoad(() => v.getCampaign(id), [id]);
  const [lookup, setLookup] = useState<string[]>([]);
  const all = [...new Set([...minters, ...lookup])];
  const configs = useLoad(() => Promise.all(all.map((m) => v.getMinterConfig(id, m))), [id, all.join()]);
  const c = campaign.value;
  const creator = c && accountName(program, wallet.address ?? from, c.creator);
  const label = c && (name ?? c.campaignId.label ?? verifiedLabel(c.campaignId.value, c.metadata));
  // The vault's and the token's pause states through the wallet's own RPC (no API route reads
  // them); unknown without a wallet.
  const onChain = () => (String(wallet.chainId) === program.chainId ? wallet.provider() : null);
  const pauses = useLoad(async () => {
    const provider = onChain();
    return provider ? pausedStates(provider, program) : null;
  }, [wallet.chainId]);
  const vaultPaused = pauses.value?.pspVault ?? null;
  const off = c ? unavailableActions(c.status, vaultPaused, pauses.value?.points ?? null) : {};
  const status = (kind: "pause" | "resume") =>
    from &&
    run({
      title: `${kind === "pause" ? "Pause" : "Resume"} the campaign`,
      build: () => (kind === "pause" ? v.pauseCampaign(id, { from }) : v.resumeCampaign(id, { from })),
      onDone: bump,
    });

  return (
    <div className="stack">
      <Card title={`Campaign ${escapeHidden(name ?? c?.campaignId.label ?? id.slice(0, 10) + "… (unverified)")}`}>
        <ErrorBox error={campaign.error} />
        {c && (
          <>
            <dl className="kv" data-testid="campaign">
              <dt>Name</dt>
              <dd data-testid="campaign-name">{label ? <UserText text={label} /> : "none (unverified)"}</dd>
              <dt>Id</dt>
              <dd>
                <Address address={c.campaignId.value} />
              </dd>
              <dt>Status</dt>
              <dd>
                <span className={`badge ${c.status === "Active" ? "ok" : "bad"}`}>{c.status}</span>
                {vaultPaused && (
                  <>
                    {" "}
                    <span className="badge bad" data-testid="vault-paused">
                      Campaign vault paused
                    </span>
                  </>
                )}
              </dd>
              <dt>Budget</dt>
              <dd>{sp(c.budget)}</dd>
              <dt>Available</dt>
              <dd data-testid="campaign-available">{sp(c.available)}</dd>
              <dt>Outstanding pSP</dt>
              <dd data-testid="campaign-outstanding">{tokenAmount(c.outstanding, SP_DECIMALS, "pSP")}</dd>
              <dt>Creator</dt>
              <dd data-testid="campaign-creator">
                {creator && <>{creator} </>}
                <Address address={c.creator} explorerUrl={explorerUrl} />
              </dd>
              {c.metadata && <Metadata text={c.metadata} />}
            </dl>
          </>
        )}
      </Card>
      {c && <CampaignMoney id={c.campaignId.value} />}
      {c && (
        <Card title="Budget over time">
          <Suspense fallback={<p className="progress">Loading the picture…</p>}>
            <CampaignCharts id={c.campaignId.value} />
          </Suspense>
        </Card>
      )}
      <Tabs
        label="Campaign actions"
        tabs={[
          {
            id: "psp",
            label: "Issue, settle, expire",
            content: (
              <div className="cards">
                <ActionCard
                  card="Issue pSP"
                  title="Issue pSP to a holder"
                  submit="Issue pSP"
                  idPrefix="issue-psp"
                  unavailable={off.issue}
                  needs={NEEDS.issue}
                  fields={[{ name: "to", label: "Holder", kind: "address" }, PSP_AMOUNT, METADATA]}
                  build={(x, from) => v.mint(id, x.to, x.amount, x.metadata, { from })}
                />
                <ActionCard
                  card="Settle pSP to SP"
                  title="Settle"
                  submit="Settle"
                  idPrefix="settle"
                  unavailable={off.settle}
                  needs={NEEDS.settleOrExpire}
                  check={settleCheck(client, () => wallet.provider(), program.pspVault, c?.campaignId.value ?? id)}
                  fields={[
                    HOLDER,
                    {
                      name: "receiver",
                      label: "Receiver",
                      kind: "address",
                      hint: "Gets the settled points; on the campaign's settlement allowlist.",
                    },
                    PSP_AMOUNT,
                    METADATA,
                  ]}
                  build={(x, from) => v.settle(x.holder, x.receiver, x.amount, id, x.metadata, { from })}
                />
                <ActionCard
                  card="Expire (claw back)"
                  title="Expire pSP into the budget"
                  submit="Expire"
                  idPrefix="expire"
                  unavailable={off.expire}
                  needs={NEEDS.settleOrExpire}
                  fields={[HOLDER, PSP_AMOUNT, METADATA]}
                  build={(x, from) => v.expire(x.holder, x.amount, id, x.metadata, { from })}
                />
                <ActionCard
                  card="Admin transfer"
                  title="Move pSP between holders"
                  submit="Transfer pSP"
                  idPrefix="psp-transfer"
                  unavailable={off.transfer}
                  needs={NEEDS.transfer}
                  fields={[
                    { name: "holder", label: "From holder", kind: "address" },
                    { name: "to", label: "To (on the transfer allowlist)", kind: "address" },
                    PSP_AMOUNT,
                  ]}
                  build={(x, from) => v.transfer(id, x.holder, x.to, x.amount, { from })}
                />
                <PspBalance id={id} />
              </div>
            ),
          },
          {
            id: "allowlists",
            label: "Allowlists",
            content: (
              <div className="cards">
                {(
                  [
                    ["updateSettlementWhitelist", "Settlement allowlist", "settlement-whitelist"],
                    ["updateTransferWhitelist", "pSP transfer allowlist", "transfer-whitelist"],
                  ] as const
                ).map(([fn, title, key]) => (
                  <ActionCard
                    key={key}
                    card={title}
                    title={`Update the ${title.toLowerCase()}`}
                    submit="Save"
                    idPrefix={key}
                    fields={ACCOUNT_ALLOWED}
                    build={(x, from) => v[fn](id, x.account, x.allowed, { from })}
                  />
                ))}
              </div>
            ),
          },
          {
            id: "minters",
            label: "Minters",
            content: (
              <Card title="Delegated minters">
                <ErrorBox error={configs.error} />
                <Table columns={["Minter", "Limit", "Issued", "Active"]}>
                  {configs.value?.map((m) => (
                    <tr key={m.minter}>
                      <td>
                        <code className="addr">{m.minter}</code>
                      </td>
                      <td>{sp(m.limit)}</td>
                      <td>{sp(m.issued)}</td>
                      <td>
                        {m.active ? <span className="badge ok">active</span> : <span className="badge">inactive</span>}
                      </td>
                    </tr>
                  ))}
                  {configs.value?.length === 0 && (
                    <tr>
                      <td colSpan={4} className="muted">
                        No delegated minter yet.
                      </td>
                    </tr>
                  )}
                </Table>
                <LookupMinter onFound={(m) => setLookup((l) => [...l, m])} />
                <ActionForm
                  title="Configure a delegated minter"
                  submit="Save minter"
                  idPrefix="configure-minter"
                  fields={[
                    { name: "minter", label: "Minter address", kind: "address" },
                    {
                      name: "limit",
                      label: "Limit",
                      kind: "psp",
                      hint: "Total pSP it may issue; 0 and inactive revokes.",
                    },
                    { name: "active", label: "Active", kind: "bool" },
                  ]}
                  build={(x, from) => v.setMinter(id, x.minter, x.limit, x.active, { from })}
                  destructive="This account will be able to issue pSP from this campaign's budget up to its limit."
                />
              </Card>
            ),
          },
          {
            id: "admin",
            label: "Admin",
            content: (
              <div className="cards">
                <Card title="Pause or resume">
                  <p className="muted">A paused campaign issues no pSP; settling, expiring and transfers go on.</p>
                  <div className="row wrap">
                    <button disabled={!from || c?.status !== "Active"} onClick={() => status("pause")}>
                      Pause campaign
                    </button>
                    <button disabled={!from || c?.status !== "Paused"} onClick={() => status("resume")}>
                      Resume campaign
                    </button>
                  </div>
                </Card>
                <ActionCard
                  card="Fund"
                  title="Top up the budget"
                  submit="Fund campaign"
                  idPrefix="fund"
                  unavailable={off.fund}
                  check={fundCheck(
                    client,
                    () => pauses.value?.points ?? null,
                    async () => (onChain() ? vaultUnallocated(onChain()!, program.pspVault) : null),
                    symbol,
                  )}
                  fields={[AMOUNT]}
                  build={(x, from) => v.fundCampaign(id, x.amount, { from })}
                />
                <ActionCard
                  card="Close"
                  title="Close for good"
                  submit="Close campaign"
                  idPrefix="close"
                  unavailable={off.close}
                  check={closeCheck(
                    () => pauses.value?.points ?? null,
                    async () => {
                      const p = onChain();
                      if (!p || !c) return null;
                      const parties = await closingParties(p, program.pspVault, c.campaignId.value);
                      return { available: BigInt(c.available), ...parties };
                    },
                  )}
                  fields={[
                    {
                      name: "to",
                      label: "The funder's share goes back to the funder (leave empty to read it from the chain)",
                      kind: "address",
                      optional: true,
                    },
                  ]}
                  build={(x, from) => v.closeCampaign(id, x.to, { from })}
                  destructive="Closing is for good: no more pSP can be issued, and the unused budget goes back."
                />
                <ActionCard
                  card="Campaign admins"
                  title="Update the campaign admins"
                  submit="Save"
                  idPrefix="campaign-admin"
                  fields={ACCOUNT_ALLOWED}
                  build={(x, from) => v.setCampaignAdmin(id, x.account, x.allowed, { from })}
                  destructive="A campaign admin manages this campaign's allowlists, minters and status."
                />
              </div>
            ),
          },
        ]}
      />
    </div>
  );
}

/** Metadata as labelled fields; the raw text behind a disclosure. */
function Metadata({ text }: { text: string }) {
  const fields = metadataFields(text);
  return (
    <>
      {fields?.map((f) => (
        <FieldRow key={f.label} label={f.label} value={f.value} />
      ))}
      <dt>Metadata</dt>
      <dd>
        {fields ? (
          <details>
            <summary>Raw metadata</summary>
            <code>
              <UserText text={text} />
            </code>
          </details>
        ) : (
          <UserText text={text} />
        )}
      </dd>
    </>
  );
}

function FieldRow({ label, value }: { label: string; value: string }) {
  return (
    <>
      <dt>
        <UserText text={label} />
      </dt>
      <dd>
        <UserText text={value} />
      </dd>
    </>
  );
}

function LookupMinter({ onFound }: { onFound(m: string): void }) {
  const [m, setM] = useState("");
  const [err, setErr] = useState<string | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!isAddress(m)) return setErr("Must be an address.");
    setErr(null);
    onFound(m.trim());
    setM("");
  };
  return (
    <form className="row wrap" onSubmit={submit} noValidate>
      <Field label="Look up a minter" value={m} error={err} onChange={(e) => setM(e.target.value)} />
      <button type="submit">Look up</button>
    </form>
  );
}

function PspBalance({ id }: { id: string }) {
  const { client } = useDash();
  const [holder, setHolder] = useState("");
  const [asked, setAsked] = useState<string | null>(null);
  const bal = useLoad(async () => (asked ? client.vault.balanceOf(id, asked) : null), [id, asked]);
  return (
    <Card title="pSP balance">
      <form
        className="row wrap"
        noValidate
        onSubmit={(e) => (e.preventDefault(), isAddress(holder) && setAsked(holder.trim()))}
      >
        <Field label="Holder" value={holder} onChange={(e) => setHolder(e.target.value)} />
        <button type="submit">Show</button>
      </form>
      <ErrorBox error={bal.error} />
      {bal.value && <p data-testid="psp-balance">{tokenAmount(bal.value.balance, SP_DECIMALS, PENDING_SYMBOL)}</p>}
    </Card>
  );
}
