import { stringify } from "csv-stringify/sync";

// CSV files staff download and open in a spreadsheet. A cell a visitor typed (a name, an e-mail
// address) that begins with =, +, -, @, a tab or a carriage return would be run as a formula by
// Excel or LibreOffice; it is written with a leading apostrophe instead, which spreadsheets show
// as plain text (OWASP's advice on CSV injection).

const formulaStart = /^[=+\-@\t\r]/;

/** The cell as text, never as a formula. */
export function safeCell(value: string | number | null | undefined): string {
  const text = value === null || value === undefined ? "" : String(value);
  return formulaStart.test(text) ? `'${text}` : text;
}

/** A CSV document (RFC 4180, CRLF line ends, with a byte-order mark so Excel reads UTF-8). */
export function toCsv(header: string[], rows: (string | number | null | undefined)[][]): string {
  return "\uFEFF" + stringify([header, ...rows.map((row) => row.map(safeCell))], { record_delimiter: "windows" });
}

/** A CSV file for the browser to save as `filename`; staff data, so never cached or indexed. */
export function csvDownload(csv: string, filename: string): Response {
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${filename.replace(/[^\w.-]/g, "-")}"`,
      "Cache-Control": "private, no-store",
      "X-Robots-Tag": "noindex, nofollow",
    },
  });
}
