import type { Route } from "./+types/api.admin.events.id.tickets";
import { ticketsForEvent } from "~/features/booking/tickets.server";
import { findEvent } from "~/features/events/events.server";
import { requireStaff } from "~/features/staff/staff.server";
import { apiRoute, noStore } from "~/infra/http/api.server";
import { AppError } from "~/lib/errors";

// GET /api/admin/events/:id/tickets: the event's ticket records, with the spec's field names.
export const loader = ({ request, context, params }: Route.LoaderArgs) =>
  apiRoute("Listing an event's tickets", async () => {
    await requireStaff(context.services, request, "bookings");
    if (!(await findEvent(context.services, params.id))) throw new AppError("not-found", "There is no such event.");
    return Response.json({ tickets: await ticketsForEvent(context.services, params.id) }, { headers: noStore });
  });
