import type { Route } from "./+types/api.admin.bookings.ref.refunds";
import { refundBooking } from "~/features/booking/refunds.server";
import { offerSeatsAfter } from "~/features/booking/waiting-list.server";
import { requireStaff } from "~/features/staff/staff.server";
import { allowMethods, apiRoute, noStore, readJsonBody } from "~/infra/http/api.server";
import { AppError } from "~/lib/errors";

// POST /api/admin/bookings/:bookingRef/refunds {quantity, reason, key, ticketTypeId?}: refunds that
// many tickets (the amount computed by the server); `ticketTypeId` says whose, and is needed only
// when the booking has tickets of more than one type left (its types are in GET /api/admin/bookings/:ref). 201 with the refund; the same key again answers 200 with
// the same refund, so a retried request never refunds twice. Its status is `pending` while the
// card provider has not yet answered (it is asked again in the background).
export const action = ({ request, context, params }: Route.ActionArgs) =>
  apiRoute("Refunding a booking", async () => {
    allowMethods(request, "POST");
    const staff = await requireStaff(context.services, request, "bookings");
    const body = await readJsonBody(request);
    const { refund, created } = await refundBooking(context.services, staff, params.bookingRef, {
      quantity: body.quantity,
      ticketTypeId: body.ticketTypeId,
      reason: body.reason,
      key: body.key,
    });
    // Seats given back go to the event's waiting list at once (decision 086).
    await offerSeatsAfter(context.services, { bookingRef: params.bookingRef });
    return Response.json(refund, { status: created ? 201 : 200, headers: noStore });
  });

// Only POST is offered here; a booking's refunds are in GET /api/admin/bookings/:bookingRef.
export const loader = ({ request, context }: Route.LoaderArgs) =>
  apiRoute("Reading a booking's refunds", async () => {
    await requireStaff(context.services, request, "bookings");
    throw new AppError("method-not-allowed", "Use POST to refund; GET the booking to see its refunds.", {
      headers: { Allow: "POST" },
    });
  });
