import type { Route } from "./+types/admin.events.id.sales-csv";
import { figuresCsvRows } from "~/components/charts/chart";
import { pastEvents, eventSales } from "~/features/booking/sales.server";
import { salesTable } from "~/features/booking/sales-tables";
import { requireStaffResource } from "~/features/staff/staff.server";
import { pageWork } from "~/infra/http/page.server";
import { csvDownload, toCsv } from "~/lib/csv";
import { londonDay } from "~/lib/london-time";

// GET /admin/events/:id/sales.csv[?compare=<past event>]: the event page's sales by day (decision
// 094), with the compared event's where one is named, and the tickets by type. Totals only.
export const loader = pageWork(
  "Downloading an event's sales",
  async ({ request, context, params }: Route.LoaderArgs) => {
    await requireStaffResource(context.services, request, "events");
    const now = context.services.clock.now();
    const sales = await eventSales(context.services, params.id, now);
    if (!sales) throw new Response("There is no such event.", { status: 404 });
    const compareId = new URL(request.url).searchParams.get("compare");
    const chosen = compareId
      ? (await pastEvents(context.services, sales.eventId, now)).find((e) => e.id === compareId)
      : undefined;
    const compare = chosen ? ((await eventSales(context.services, chosen.id, now)) ?? null) : null;
    const table = salesTable(sales, compare);
    return csvDownload(toCsv(table.header, figuresCsvRows(table)), `sales-${londonDay(sales.eventDate)}.csv`);
  },
);
