import { Link } from "react-router";
import type { Route } from "./+types/admin.bookings.ref";
import { ErrorPage } from "~/components/layout/error-page";
import { FormNotice } from "~/components/ui/form-notice";
import { useNoticeFocus } from "~/components/ui/use-notice-focus";
import { BuyerForm, RefundForm, StaffBookingDetails } from "~/features/booking/components/staff-booking";
import { refundBooking } from "~/features/booking/refunds.server";
import { refundDonation } from "~/features/donations/refunds.server";
import { can } from "~/features/staff/roles";
import { offerSeatsAfter } from "~/features/booking/waiting-list.server";
import { correctBuyer, resendReceipt, staffBooking } from "~/features/booking/staff-bookings.server";
import { adminMeta } from "~/features/staff/components/admin-shell";
import { Breadcrumbs } from "~/features/staff/components/breadcrumbs";
import { requireStaffPage } from "~/features/staff/staff.server";
import { answerForm, formText } from "~/infra/http/form-action.server";
import { pageWork } from "~/infra/http/page.server";
import { AppError } from "~/lib/errors";
import { typedTickets } from "~/lib/booking-items";
import { formatPounds } from "~/lib/money";

// /admin/bookings/:bookingRef: a booking and its history; refund some or all of it, correct its
// buyer, send its receipt again.
export const loader = pageWork("A booking's page", async ({ request, context, params }: Route.LoaderArgs) => {
  await requireStaffPage(context.services, request, "bookings");
  const booking = await staffBooking(context.services, params.bookingRef);
  if (!booking) throw new AppError("not-found", "There is no such booking.");
  // The refund form's one-time token: it becomes the refund's key, so the form sent twice refunds once.
  return { booking, refundKey: crypto.randomUUID() };
});

export const action = pageWork("Changing a booking", async ({ request, context, params }: Route.ActionArgs) => {
  const staff = await requireStaffPage(context.services, request, "bookings");
  return answerForm(request, {
    refund: async (form) => {
      // A donation made with the tickets goes back only when staff tick its box (decision 085).
      const withGift = formText(form, "refundDonation") === "on";
      if (withGift && !can(staff.role, "money")) throw new AppError("forbidden", onlyMoneyStaff);
      const { refund, created } = await refundBooking(context.services, staff, params.bookingRef, {
        quantity: formText(form, "quantity"),
        ticketTypeId: formText(form, "ticketTypeId"),
        reason: formText(form, "reason"),
        key: formText(form, "key"),
      });
      const gift = withGift ? (await staffBooking(context.services, params.bookingRef))?.gift : null;
      const giftRefund =
        gift?.status === "paid"
          ? await refundDonation(context.services, staff, {
              donationId: gift.donationId,
              key: `${formText(form, "key")}:donation`,
              reason: formText(form, "reason"),
            })
          : undefined;
      // Seats given back go to the event's waiting list at once (decision 086).
      await offerSeatsAfter(context.services, { bookingRef: params.bookingRef });
      const tickets = typedTickets(refund.quantity ?? 0, refund.ticketType);
      const giftWords =
        !gift || !giftRefund
          ? ""
          : giftRefund?.outcome === "refunded"
            ? ` The donation of ${formatPounds(gift.amountPence)} is refunded too.`
            : ` The refund of the donation of ${formatPounds(gift.amountPence)} is waiting; it is tried again automatically.`;
      return {
        message:
          (refund.status === "succeeded"
            ? `${created ? "Refunded" : "Already refunded"}: ${tickets}, ${formatPounds(refund.amountPence)}. The buyer is told by e-mail.`
            : `Refund waiting: ${refund.lastError ?? "the card provider has not answered yet"}. It is tried again automatically.`) +
          giftWords,
      };
    },
    correct: async (form) => {
      await correctBuyer(
        context.services,
        staff,
        params.bookingRef,
        { name: formText(form, "name"), email: formText(form, "email") },
        context.services.clock.now(),
      );
      return { message: "The buyer's details are saved." };
    },
    resend: async () => {
      const { resendId, email } = await resendReceipt(context.services, staff, params.bookingRef);
      const sent = await context.services.outbox.deliver("receipt-sent-again", resendId);
      return {
        message:
          sent.ok === true
            ? `The receipt was sent again to ${email}.`
            : `The receipt is queued for ${email}; the mail server will be tried again shortly.`,
      };
    },
  });
});

const onlyMoneyStaff = "Only a member of staff who may refund donations can refund the donation too.";

export const meta: Route.MetaFunction = ({ data }) => adminMeta(data ? `Booking ${data.booking.code}` : "Booking");

export default function AdminBooking({ loaderData: { booking, refundKey }, actionData }: Route.ComponentProps) {
  const notice = useNoticeFocus(actionData);
  return (
    <main id="main" className="page narrow staff-booking">
      <Breadcrumbs here={`Booking ${booking.code}`} />
      <p>
        Event: <Link to={`/admin/events/${booking.event.id}`}>{booking.event.name}</Link>
      </p>
      <h1>Booking {booking.code}</h1>
      {actionData ? (
        <FormNotice ok={actionData.ok} focusRef={notice}>
          {actionData.message}
        </FormNotice>
      ) : null}
      <StaffBookingDetails booking={booking} />
      {/* Drawn afresh after a refund only: a reason being typed survives the buyer's form being saved. */}
      <RefundForm
        key={booking.refundedPence}
        booking={booking}
        refundKey={refundKey}
        result={actionData?.intent === "refund" ? actionData : undefined}
      />
      <BuyerForm booking={booking} result={actionData?.intent === "correct" ? actionData : undefined} />
    </main>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
