import type { BulkPlan } from "@points/sdk";
import { Address } from "../components/format/Address";
import { formatAmount } from "../components/format/amount";
import { Table } from "../components/ui";
import { revertSentence } from "../api/revertSentences";

const SYMBOL = "SP";
const units = (v: string, decimals: number) => `${formatAmount(v, decimals)} ${SYMBOL}`;

/** What a dry run found, before anything is signed: rows, totals, headroom, refusals, transactions. */
export function DryRun({ plan, explorerUrl }: { plan: BulkPlan; explorerUrl: string | null }) {
  const d = plan.decimals;
  const blocked = plan.blocked && revertSentence(plan.blocked.name, plan.blocked.args);
  return (
    <div className="stack" data-testid="bulk-dry-run">
      <Table columns={["Figure", "Value"]} label="Dry run">
        <tr>
          <th scope="row">Rows</th>
          <td data-testid="bulk-rows">{plan.rowCount.toLocaleString("en-US")}</td>
        </tr>
        <tr>
          <th scope="row">Total</th>
          <td data-testid="bulk-total" title={`${plan.totalAmount} in smallest units`}>
            {units(plan.totalAmount, d)}
          </td>
        </tr>
        {plan.budget && (
          <tr>
            <th scope="row">Campaign budget available</th>
            <td data-testid="bulk-budget">
              {units(plan.budget.available, d)}
              {plan.budget.shortfall !== "0"
                ? ` (short by ${units(plan.budget.shortfall, d)})`
                : ` (${units((BigInt(plan.budget.available) - BigInt(plan.totalAmount)).toString(), d)} left after)`}
            </td>
          </tr>
        )}
        {plan.minter && (
          <tr>
            <th scope="row">Your minter limit left</th>
            <td data-testid="bulk-minter">
              {units(plan.minter.headroom, d)} of {units(plan.minter.limit, d)}
              {plan.minter.active ? "" : " (inactive)"}
            </td>
          </tr>
        )}
        <tr>
          <th scope="row">Recipients not allowed</th>
          <td data-testid="bulk-not-allowed">{plan.notAllowed.length}</td>
        </tr>
        <tr>
          <th scope="row">Transactions to sign</th>
          <td data-testid="bulk-chunks">{plan.chunkCount}</td>
        </tr>
      </Table>
      {plan.blocked && (
        <div className="error" role="alert">
          <strong>The chain would refuse this drop</strong>
          <p>{blocked ?? `${plan.blocked.name}: nothing can be sent as it is.`}</p>
        </div>
      )}
      {plan.notAllowed.length > 0 && (
        <div className="table-scroll">
          <Table columns={["Row", "Address", "Amount", "Holds"]} label="Recipients not allowed">
            {plan.notAllowed.map((r) => (
              <tr key={r.row}>
                <td>{r.row}</td>
                <td>
                  <Address address={r.address} explorerUrl={explorerUrl} />
                </td>
                <td>{units(r.amount, d)}</td>
                <td>{r.balance === undefined ? "" : units(r.balance, d)}</td>
              </tr>
            ))}
          </Table>
        </div>
      )}
    </div>
  );
}
