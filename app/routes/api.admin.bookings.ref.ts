import type { Route } from "./+types/api.admin.bookings.ref";
import { bookingWithHistory } from "~/features/booking/staff-bookings.server";
import { requireStaff } from "~/features/staff/staff.server";
import { apiRoute, noStore } from "~/infra/http/api.server";
import { AppError } from "~/lib/errors";

// GET /api/admin/bookings/:bookingRef: one booking with its status history.
export const loader = ({ request, context, params }: Route.LoaderArgs) =>
  apiRoute("Reading a booking", async () => {
    await requireStaff(context.services, request, "bookings");
    const booking = await bookingWithHistory(context.services, params.bookingRef);
    if (!booking) throw new AppError("not-found", "There is no such booking.");
    return Response.json(booking, { headers: noStore });
  });
