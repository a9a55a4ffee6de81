import type { Route } from "./+types/admin.income-csv";
import { figuresCsvRows } from "~/components/charts/chart";
import { incomeTable } from "~/features/donations/income";
import { incomeByMonth } from "~/features/donations/income.server";
import { requireStaffResource } from "~/features/staff/staff.server";
import { pageWork } from "~/infra/http/page.server";
import { csvDownload, toCsv } from "~/lib/csv";
import { londonDay } from "~/lib/london-time";

// GET /admin/income.csv: the staff home's income table (decision 094), as it stands, for a
// spreadsheet. Totals only, no one's data, so the download is not audited.
export const loader = pageWork("Downloading the income figures", async ({ request, context }: Route.LoaderArgs) => {
  await requireStaffResource(context.services, request, "money");
  const now = context.services.clock.now();
  const table = incomeTable(await incomeByMonth(context.services, now));
  return csvDownload(toCsv(table.header, figuresCsvRows(table)), `income-${londonDay(now)}.csv`);
});
