import { formatUnits } from "ethers";

/**
 * Smallest units as a plain decimal for a spreadsheet: every decimal kept, trailing zeros and
 * grouping dropped ("12.25", "0"), so the cell reads as a number in any locale's import.
 */
export function plainUnits(value: string | bigint, decimals: number): string {
  return formatUnits(value, decimals).replace(/\.0+$|(\.\d*?)0+$/, "$1");
}

/**
 * One RFC 4180 cell: quoted when it holds a quote, comma or line break; a cell starting with =,
 * +, -, @, tab or CR gets a leading ' so spreadsheets do not run it (as the API's CSV files do).
 */
function cell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** CSV text: a header row, then the rows, CRLF line ends. */
export function csvText(header: string[], rows: string[][]): string {
  return [header, ...rows].map((r) => r.map(cell).join(",")).join("\r\n") + "\r\n";
}

/** Hands `text` to the browser as a downloaded file named `name` (nothing leaves the page). */
export function downloadCsv(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: "text/csv;charset=utf-8" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  // Revoked after the click has handed the file over.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
