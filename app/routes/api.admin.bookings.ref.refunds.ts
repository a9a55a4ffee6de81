import type { Route } from "./+types/api.admin.bookings.ref.refunds";
import { refundBooking } from "~/features/booking/refunds.server";
import { staffBooking } from "~/features/booking/staff-bookings.server";
import { refundDonation } from "~/features/donations/refunds.server";
import { can } from "~/features/staff/roles";
import { offerSeatsAfter } from "~/features/booking/waiting-list.server";
import { requireStaff } from "~/features/staff/staff.server";
import { allowMethods, apiRoute, noStore, readJsonBody } from "~/infra/http/api.server";
import { AppError } from "~/lib/errors";

// POST /api/admin/bookings/:bookingRef/refunds {quantity, reason, key, ticketTypeId?, refundDonation?}: refunds that
// many tickets (the amount computed by the server); `ticketTypeId` says whose, and is needed only
// when the booking has tickets of more than one type left (its types are in GET /api/admin/bookings/:ref). 201 with the refund; the same key again answers 200 with
// the same refund, so a retried request never refunds twice. Its status is `pending` while the
// card provider has not yet answered (it is asked again in the background).
// `refundDonation: true` refunds the donation made at checkout too, as the staff form's box does
// (decision 085): only by a member who may refund donations (Treasurer, Owner), its own refund,
// answered as `donationRefund` ({donationId, amountPence, outcome}); without it the gift stays.
export const action = ({ request, context, params }: Route.ActionArgs) =>
  apiRoute("Refunding a booking", async () => {
    allowMethods(request, "POST");
    const staff = await requireStaff(context.services, request, "bookings");
    const body = await readJsonBody(request);
    const withGift = body.refundDonation === true;
    if (withGift && !can(staff.role, "money")) {
      throw new AppError("forbidden", "Only a member of staff who may refund donations can refund the donation too.");
    }
    const { refund, created } = await refundBooking(context.services, staff, params.bookingRef, {
      quantity: body.quantity,
      ticketTypeId: body.ticketTypeId,
      reason: body.reason,
      key: body.key,
    });
    // The donation made at checkout, when asked: its own refund, keyed on the tickets' (decision 085).
    const gift = withGift ? (await staffBooking(context.services, params.bookingRef))?.gift : null;
    const giftRefund =
      gift?.status === "paid"
        ? await refundDonation(context.services, staff, {
            donationId: gift.donationId,
            key: `${String(body.key)}:donation`,
            reason: body.reason,
          })
        : undefined;
    // Seats given back go to the event's waiting list at once (decision 086).
    await offerSeatsAfter(context.services, { bookingRef: params.bookingRef });
    const donationRefund = gift && {
      donationId: gift.donationId,
      amountPence: gift.amountPence,
      outcome: giftRefund?.outcome ?? gift.status,
    };
    return Response.json(withGift ? { ...refund, donationRefund } : refund, {
      status: created ? 201 : 200,
      headers: noStore,
    });
  });

// Only POST is offered here; a booking's refunds are in GET /api/admin/bookings/:bookingRef.
export const loader = ({ request, context }: Route.LoaderArgs) =>
  apiRoute("Reading a booking's refunds", async () => {
    await requireStaff(context.services, request, "bookings");
    throw new AppError("method-not-allowed", "Use POST to refund; GET the booking to see its refunds.", {
      headers: { Allow: "POST" },
    });
  });
