import type { Route } from "./+types/api.admin.bookings.ref";
import { bookingWithHistory } from "~/features/booking/booking.server";
import { requireStaff } from "~/features/staff/staff.server";

// GET /api/admin/bookings/:bookingRef: one booking with its status history.
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { db } = context.services;
  await requireStaff(context.services, request);
  const booking = await bookingWithHistory(db, params.bookingRef);
  if (!booking) return Response.json({ error: "There is no such booking." }, { status: 404 });
  return Response.json(booking, { headers: { "Cache-Control": "no-store" } });
}
