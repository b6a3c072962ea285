import { Table } from "../components/ui";
import { UserText } from "../components/format/UserText";

/** One refused row as the API names it (422 INVALID_ROWS, details.rows). */
export interface BadRow {
  row: number;
  line?: number;
  field: string;
  reason: string;
}

/** Every bad row at once, by its row number, field and reason: nothing was built. */
export function BadRows({ rows }: { rows: BadRow[] }) {
  return (
    <div className="error" role="alert" data-testid="bulk-bad-rows">
      <strong>
        {rows.length} bad row{rows.length === 1 ? "" : "s"}: nothing was built
      </strong>
      <p>Fix these rows in your file and check again. Row numbers count data rows, without the header.</p>
      <div className="table-scroll">
        <Table columns={["Row", "Line", "Field", "Reason"]} label="Bad rows">
          {rows.map((r, i) => (
            <tr key={i}>
              <td>{r.row}</td>
              <td>{r.line ?? ""}</td>
              <td>{r.field}</td>
              <td>
                <UserText text={r.reason} />
              </td>
            </tr>
          ))}
        </Table>
      </div>
    </div>
  );
}
