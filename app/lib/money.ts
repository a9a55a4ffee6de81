// Money is integer pence everywhere; pounds appear only at the edges (display, staff input).

/** £12.50 from 1250; whole pounds keep their pence (£12.00) so totals line up. */
export function formatPounds(pence: number): string {
  if (!Number.isInteger(pence)) throw new Error(`Not a whole number of pence: ${pence}`);
  const sign = pence < 0 ? "-" : "";
  const abs = Math.abs(pence);
  const pounds = Math.floor(abs / 100).toLocaleString("en-GB");
  return `${sign}£${pounds}.${String(abs % 100).padStart(2, "0")}`;
}

/**
 * Pence from an amount in pounds given as a number (12.5) or text ("12.50", "£12.50"), without
 * floating-point error; undefined if it is not a non-negative amount with at most two decimals.
 */
export function parsePence(value: number | string): number | undefined {
  const text =
    typeof value === "number" ? (Number.isFinite(value) ? String(value) : "") : value.trim().replace(/^£/, "");
  const match = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(text);
  if (!match) return undefined;
  return Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
}
