import { ChartFigure } from "~/components/charts/chart-figure";
import type { DrawnChart } from "~/components/charts/chart";
import { FiguresTableView } from "~/components/charts/figures-table";
import { formatPounds } from "~/lib/money";
import { incomeTable, type Income } from "../income";

/** The staff home's "Income" (decision 094): the last 12 months' bars, their table and CSV. */
export function IncomeSection({ income, chart }: { income: Income; chart: DrawnChart }) {
  return (
    <section className="section home-section chart-section" aria-labelledby="income-heading">
      <h2 id="income-heading">Income</h2>
      <p className="field-hint">
        By the month it was paid, London time, this month to date. Refunds are taken off and test events left out. Gift
        Aid is not in the bars: it is in the table, claimed and waiting to be claimed, by the month of the gift.
      </p>
      <ChartFigure chart={chart} />
      {income.has.giftAid ? (
        <p>
          Gift Aid on these months&apos; gifts: {formatPounds(income.totals.giftAidClaimedPence)} claimed,{" "}
          {formatPounds(income.totals.giftAidWaitingPence)} waiting to be claimed.
        </p>
      ) : null}
      <FiguresTableView table={incomeTable(income)} caption="Income by month" csvHref="/admin/income.csv" />
    </section>
  );
}
