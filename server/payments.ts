import { settleBooking } from "~/features/booking/booking.server";
import { settleDonation } from "~/features/donations/donations.server";
import type { Payment, PaymentDeps } from "~/infra/payments/provider.server";
import { handlePaymentWebhook } from "~/infra/payments/webhook.server";

/**
 * Settles whatever a succeeded card payment paid for, chosen by the payment's own metadata as the
 * provider reports it (`booking_ref` or `donation_id`, set when the payment was created): a
 * booking or a donation, each exactly once however often it is asked. A payment that is neither
 * (another of the charity's Stripe products) is left alone.
 */
export async function settlePayment(deps: PaymentDeps, paymentId: string, known?: Payment) {
  const payment = known?.id === paymentId ? known : await deps.payments.retrievePayment(paymentId);
  if (payment.metadata.booking_ref) return settleBooking(deps, payment.metadata.booking_ref, payment);
  if (payment.metadata.donation_id) return settleDonation(deps, payment.metadata.donation_id, payment);
  return undefined;
}

/** POST /api/payments/webhook: the provider's notifications, for bookings and donations alike. */
export function paymentWebhook(deps: PaymentDeps, request: Request) {
  return handlePaymentWebhook(deps, request, (paymentId) => settlePayment(deps, paymentId));
}
