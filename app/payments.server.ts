import { bookingRefForPayment, settleBooking } from "~/features/booking/booking.server";
import { donationIdForPayment, settleDonation } from "~/features/donations/donations.server";
import { handlePaymentWebhook } from "~/infra/payments/webhook.server";
import type { PaymentDeps } from "~/infra/payments/provider.server";

/**
 * Settles whatever a succeeded card payment paid for: a booking or a donation. Each settles from
 * what the provider says, once, however often it is asked; a payment that is neither is ignored.
 */
export async function settlePayment(deps: PaymentDeps, paymentId: string) {
  const bookingRef = await bookingRefForPayment(deps.db, paymentId);
  if (bookingRef) return settleBooking(deps, bookingRef);
  const donationId = await donationIdForPayment(deps.db, paymentId);
  if (donationId) return settleDonation(deps, donationId);
  return undefined;
}

/** POST /api/payments/webhook: the provider's notifications, for bookings and donations alike. */
export function paymentWebhook(deps: PaymentDeps, request: Request) {
  return handlePaymentWebhook(deps, request, (paymentId) => settlePayment(deps, paymentId));
}
