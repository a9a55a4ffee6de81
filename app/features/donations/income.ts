import type { FiguresTable } from "~/components/charts/chart";
import { formatPounds } from "~/lib/money";

// The staff home's income figures (decision 094), as a table: one shape for the page's table and
// its CSV, so the two always say the same. The figures are worked out in income.server.ts.

export interface IncomeMonth {
  /** YYYY-MM, the London month. */
  month: string;
  /** "December 2026". */
  label: string;
  /** "Dec", for the chart's axis. */
  short: string;
  ticketPence: number;
  oneOffPence: number;
  monthlyPence: number;
  giftAidClaimedPence: number;
  giftAidWaitingPence: number;
}

export type IncomeFigures = Omit<IncomeMonth, "month" | "label" | "short">;

export interface Income {
  /** Oldest month first, the current month last; a month with nothing is a row of zeros. */
  months: IncomeMonth[];
  /** Which kinds of income there are in these months: the chart and table show only these. */
  has: { tickets: boolean; oneOff: boolean; monthly: boolean; giftAid: boolean };
  totals: IncomeFigures;
}

/** The kinds of income, in the stack's order (bottom first), and whether these months have any. */
export function incomeSeries(income: Income) {
  return [
    { key: "ticketPence", label: "Tickets", shown: income.has.tickets, style: "bar-solid" },
    { key: "oneOffPence", label: "One-off gifts", shown: income.has.oneOff, style: "bar-hatch" },
    { key: "monthlyPence", label: "Monthly gifts", shown: income.has.monthly, style: "bar-dots" },
  ] as const;
}

/** Month, each kind of income there is, their total, and Gift Aid claimed and waiting where there is any. */
export function incomeTable(income: Income): FiguresTable {
  const kinds = incomeSeries(income).filter((kind) => kind.shown);
  const row = (label: string, figures: IncomeFigures) => [
    label,
    ...kinds.map((kind) => formatPounds(figures[kind.key])),
    formatPounds(kinds.reduce((sum, kind) => sum + figures[kind.key], 0)),
    ...(income.has.giftAid
      ? [formatPounds(figures.giftAidClaimedPence), formatPounds(figures.giftAidWaitingPence)]
      : []),
  ];
  return {
    header: [
      "Month",
      ...kinds.map((kind) => kind.label),
      "Total",
      ...(income.has.giftAid ? ["Gift Aid claimed", "Gift Aid waiting to be claimed"] : []),
    ],
    rows: income.months.map((month) => row(month.label, month)),
    foot: row("All 12 months", income.totals),
  };
}
