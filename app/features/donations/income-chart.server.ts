import type { StackedSeries } from "~/components/charts/draw.server";
import type { DrawnChart } from "~/components/charts/chart";
import { formatPounds } from "~/lib/money";
import { incomeSeries, type Income } from "./income";
import { incomeByMonth } from "./income.server";

// The staff home's income chart (decision 094): the figures (income.server.ts) and their bars,
// drawn here on the server.

export interface IncomeChart {
  income: Income;
  chart: DrawnChart;
}

export async function incomeChart(
  services: Parameters<typeof incomeByMonth>[0],
  now: Date,
  readyToClaim?: Parameters<typeof incomeByMonth>[2],
): Promise<IncomeChart> {
  const income = await incomeByMonth(services, now, readyToClaim);
  // d3 is loaded with the first chart drawn, not at every start (docs/performance.md, "Start").
  const { drawStackedBars } = await import("~/components/charts/draw.server");
  const shown = incomeSeries(income).filter((series) => series.shown);
  const series: StackedSeries[] = shown.map((kind) => ({
    label: kind.label,
    style: kind.style,
    values: income.months.map((month) => month[kind.key]),
  }));
  const first = income.months[0]!;
  const last = income.months.at(-1)!;
  const parts = shown.map((kind) => `${kind.label.toLowerCase()} ${formatPounds(income.totals[kind.key])}`);
  const total = (month: (typeof income.months)[number]) => month.ticketPence + month.oneOffPence + month.monthlyPence;
  const best = income.months.reduce((top, month) => (total(month) > total(top) ? month : top));
  const description =
    shown.length === 0
      ? `Nothing came in from ${first.label} to ${last.label}.`
      : `From ${first.label} to ${last.label} (to date): ${parts.join(", ")}. ` +
        `The most came in ${best.label}: ${formatPounds(total(best))}. ` +
        `The table below gives every month.`;
  return {
    income,
    chart: drawStackedBars({
      title: "Income by month, last 12 months",
      description,
      categories: income.months.map((month) => month.short),
      series,
      xLabel: "Month paid (London time)",
      yLabel: "Pounds",
    }),
  };
}
