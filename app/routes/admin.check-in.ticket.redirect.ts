import { redirect } from "react-router";
import type { Route } from "./+types/admin.check-in.ticket.redirect";
import { eventOfBooking } from "~/features/door/door.server";
import { requireStaffResource } from "~/features/staff/staff.server";
import { pageWork } from "~/infra/http/page.server";
import { AppError } from "~/lib/errors";

// /admin/check-in/ticket/:bookingRef: where a receipt's QR code points. A signed-in staff phone that
// scans it with its camera app lands on that event's door page with the booking's answer on screen;
// anyone else is asked to sign in first, and sees nothing of the booking.
export const loader = pageWork(
  "Opening a booking at the door",
  async ({ request, context, params }: Route.LoaderArgs) => {
    await requireStaffResource(context.services, request, "checkIn");
    const eventId = await eventOfBooking(context.services, params.bookingRef);
    if (!eventId) throw new AppError("not-found", "No ticket has this booking reference.");
    return redirect(`/admin/check-in/${eventId}?ref=${encodeURIComponent(params.bookingRef)}`);
  },
);
