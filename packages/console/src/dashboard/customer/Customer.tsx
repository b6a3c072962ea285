import { useParams } from "react-router";
import { isAddress as isEthAddress } from "ethers";
import { Card, ErrorBox, Table } from "../../components/ui";
import { Address } from "../../components/format/Address";
import { Amount } from "../../components/format/Amount";
import { NotFound } from "../../NotFound";
import { CampaignName } from "../CampaignName";
import { useDash } from "../context";
import { SP_DECIMALS } from "../units";
import { PENDING_SYMBOL } from "../tokenSymbol";
import { useTokenSymbol } from "../useTokenSymbol";
import { EVENTS_PER_PAGE, EventTable } from "../ledger/EventTable";
import { LedgerStatus } from "../ledger/LedgerStatus";
import { useLedger } from "../ledger/useLedger";
import { holderCsvHref } from "../ledger/csv";
import { holdingsOf } from "./holdings";
import { CustomerList } from "./CustomerList";

const yesNo = (v: boolean) => (v ? <span className="badge ok">yes</span> : <span className="badge">no</span>);

/**
 * /console/program/customer: the customer list; /console/program/customer/<address>: a customer of the current program, from the ledger: SP
 * balance, allowlist memberships, pSP per campaign and every event touching the address.
 */
export function Customer() {
  const address = useParams().sub;
  if (address === undefined) {
    return <CustomerList />;
  }
  if (!isEthAddress(address)) return <NotFound what="This customer address" />;
  return <CustomerPage address={address} />;
}

function CustomerPage({ address }: { address: string }) {
  const { client, program, explorerUrl } = useDash();
  const symbol = useTokenSymbol();
  const h = useLedger(() => holdingsOf(client, address), [address]);
  const v = h.value;
  return (
    <div className="stack">
      <Card title="Customer">
        <p>
          <Address address={address} explorerUrl={explorerUrl} />
        </p>
        <LedgerStatus stand={v ? h.stand : null} />
        <ErrorBox error={h.error} />
        {v && (
          <dl className="kv" data-testid="customer">
            <dt>{symbol === null ? "Balance" : `${symbol} balance`}</dt>
            <dd data-testid="customer-sp">
              <Amount value={v.sp} decimals={SP_DECIMALS} symbol={symbol} />
            </dd>
            <dt>Mint allowlist</dt>
            <dd>{yesNo(v.lists.mint)}</dd>
            <dt>Redeem allowlist</dt>
            <dd>{yesNo(v.lists.redeem)}</dd>
            <dt>SP transfer allowlist</dt>
            <dd>{yesNo(v.lists.transfer)}</dd>
          </dl>
        )}
      </Card>
      <Card title="pSP per campaign">
        {v && v.campaigns.length === 0 && <p className="muted">This program has no campaign yet.</p>}
        {v && v.campaigns.length > 0 && (
          <Table
            columns={["Campaign", "pSP", "Settlement allowlist", "pSP transfer allowlist"]}
            label="pSP per campaign"
            className="stacked"
          >
            {v.campaigns.map((c) => (
              <tr key={c.campaignId} data-testid="customer-psp-row">
                <td data-label="Campaign">
                  <CampaignName id={c.campaignId} label={c.label} />
                </td>
                <td data-label="pSP">
                  <Amount value={c.psp} decimals={SP_DECIMALS} symbol={PENDING_SYMBOL} />
                </td>
                <td data-label="Settlement allowlist">{yesNo(c.settlement)}</td>
                <td data-label="pSP transfer allowlist">{yesNo(c.transfer)}</td>
              </tr>
            ))}
          </Table>
        )}
      </Card>
      <Card title="History">
        <EventTable
          label="Customer history"
          load={(cursor) => client.ledger.holderHistory(address, { cursor, limit: EVENTS_PER_PAGE })}
          csvHref={holderCsvHref(program, address)}
          csvName={`customer-${address}.csv`}
        />
      </Card>
    </div>
  );
}
