import type { Route } from "./+types/api.admin.events.id.tickets";
import { ticketsForEvent } from "~/features/booking/booking.server";
import { findEvent } from "~/features/events/events.server";
import { requireStaff } from "~/features/staff/staff.server";

// GET /api/admin/events/:id/tickets: the event's ticket records, with the spec's field names.
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { db } = context.services;
  await requireStaff(context.services, request);
  if (!(await findEvent(db, params.id))) return Response.json({ error: "There is no such event." }, { status: 404 });
  return Response.json({ tickets: await ticketsForEvent(db, params.id) }, { headers: { "Cache-Control": "no-store" } });
}
