import type { BulkPlan } from "@points/sdk";
import { Address } from "../components/format/Address";
import { Table } from "../components/ui";
import { revertSentence } from "../api/revertSentences";
import { metadataSplit, rowMetadataOf } from "./rowMetadata";
import { tokenAmount } from "../dashboard/tokenSymbol";
import { useTokenSymbol } from "../dashboard/useTokenSymbol";

/**
 * What a dry run found, before anything is signed: rows, totals, headroom, refusals, and each transaction to sign.
 * `onDropMetadata`, when given, offers to check the rows again without their metadata column.
 */
export function DryRun({
  plan,
  explorerUrl,
  onDropMetadata,
}: {
  plan: BulkPlan;
  explorerUrl: string | null;
  onDropMetadata?: () => void;
}) {
  const d = plan.decimals;
  const symbol = useTokenSymbol();
  const units = (v: string, decimals: number) => tokenAmount(v, decimals, symbol);
  const blocked = plan.blocked && revertSentence(plan.blocked.name, plan.blocked.args);
  const metadata = metadataSplit(plan);
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
      {metadata.split && (
        <div className="notice" data-testid="bulk-metadata-split">
          <strong>Per-row metadata splits this drop</strong>
          <p>
            A transaction carries one metadata text, so a row whose metadata differs from the row before starts a new
            transaction: {plan.rowCount.toLocaleString("en-US")} rows with {metadata.texts.toLocaleString("en-US")}{" "}
            different texts need {plan.chunkCount.toLocaleString("en-US")} signatures. Without the metadata column the
            rows share transactions as far as gas allows.
          </p>
          {onDropMetadata && (
            <button type="button" onClick={onDropMetadata}>
              Drop per-row metadata and check again
            </button>
          )}
        </div>
      )}
      {plan.blocked && (
        <div className="error" role="alert">
          <strong>The chain would refuse this drop</strong>
          <p>{blocked ?? `${plan.blocked.name}: nothing can be sent as it is.`}</p>
        </div>
      )}
      {plan.chunks.length > 0 && (
        <details data-testid="bulk-transactions">
          <summary>
            Review the {plan.chunkCount} transaction{plan.chunkCount === 1 ? "" : "s"} to sign
          </summary>
          <div className="table-scroll">
            <Table columns={["#", "Rows", "Amount", "Metadata", "Gas (estimate)"]} label="Transactions to sign">
              {plan.chunks.map((c) => (
                <tr key={c.index}>
                  <td>{c.index + 1}</td>
                  <td>
                    {c.rowCount === 1 ? `row ${c.firstRow}` : `rows ${c.firstRow}–${c.firstRow + c.rowCount - 1}`}
                  </td>
                  <td>{units(c.totalAmount, d)}</td>
                  <td>{rowMetadataOf(c) || <span className="muted">none</span>}</td>
                  <td>{Number(c.simulatedGas).toLocaleString("en-US")}</td>
                </tr>
              ))}
            </Table>
          </div>
        </details>
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
