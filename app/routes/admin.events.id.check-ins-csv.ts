import type { Route } from "./+types/admin.events.id.check-ins-csv";
import { figuresCsvRows } from "~/components/charts/chart";
import { eveningCheckIns, eventSales } from "~/features/booking/sales.server";
import { checkInsTable } from "~/features/booking/sales-tables";
import { requireStaffResource } from "~/features/staff/staff.server";
import { pageWork } from "~/infra/http/page.server";
import { csvDownload, toCsv } from "~/lib/csv";
import { londonDay } from "~/lib/london-time";

// GET /admin/events/:id/check-ins.csv: the event page's check-ins by quarter hour (decision 094).
export const loader = pageWork(
  "Downloading an event's check-ins",
  async ({ request, context, params }: Route.LoaderArgs) => {
    await requireStaffResource(context.services, request, "events");
    const sales = await eventSales(context.services, params.id, context.services.clock.now());
    if (!sales) throw new Response("There is no such event.", { status: 404 });
    const table = checkInsTable(await eveningCheckIns(context.services, sales.eventId));
    return csvDownload(toCsv(table.header, figuresCsvRows(table)), `check-ins-${londonDay(sales.eventDate)}.csv`);
  },
);
