import { releaseUnpaidHold } from "~/features/booking/release.server";
import { settleBooking } from "~/features/booking/settlement.server";
import { giveUpDonation, settleDonation } from "~/features/donations/donations.server";
import { giveUpRegularGift, recordGiftInvoice, type GiftDeps } from "~/features/donations/regular-gifts.server";
import { declineLimits, recordDecline } from "~/infra/payments/card-testing.server";
import type { Payment, PaymentDeps } from "~/infra/payments/provider.server";
import { AppError } from "~/lib/errors";

// What a card payment paid for, settled by the payment's own metadata: the one place that knows
// both a booking and a donation, so it sits above the features, beside the routes that call it
// (docs/decisions/062-a-straight-payment-path.md).

/**
 * Settles whatever a succeeded card payment paid for, chosen by the payment's own metadata as the
 * provider reports it (`booking_ref` or `donation_id`, set when the payment was created): a
 * booking or a donation, each exactly once however often it is asked. A payment that is neither
 * (another of the charity's Stripe products) is left alone.
 */
export async function settlePayment(deps: GiftDeps, paymentId: string, known?: Payment) {
  const payment = known?.id === paymentId ? known : await deps.payments.retrievePayment(paymentId);
  // The offline provider's first payment of a regular gift is its first invoice (decision 089);
  // Stripe's invoice payments carry no metadata and are recorded from `invoice.paid`.
  if (payment.metadata.regular_gift_id && deps.payments.name === "offline") {
    return recordGiftInvoice(deps, payment.id);
  }
  if (payment.metadata.booking_ref) return settleBooking(deps, payment.metadata.booking_ref, payment);
  if (payment.metadata.donation_id) return settleDonation(deps, payment.metadata.donation_id, payment);
  return undefined;
}

/**
 * A card was declined (the provider said so: Stripe's payment_intent.payment_failed, or the offline
 * provider's card form): a booking's seats go back at once, once the provider confirms its payment
 * took no money (releaseUnpaidHold). A donation holds nothing, so there is nothing to give back;
 * but every decline is counted, and a donation declined a few times has its payment cancelled.
 */
export async function paymentFailed(deps: PaymentDeps, paymentId: string) {
  const payment = await deps.payments.retrievePayment(paymentId);
  const bookingRef = payment.metadata.booking_ref;
  const donationId = payment.metadata.donation_id;
  // Counted against the attempt and the address that started it (decision 026); a donation's
  // payment can be tried again and again from the same page, so after a few declines it is given up.
  const declines = await recordDecline(
    deps.db,
    bookingRef ?? donationId ?? payment.metadata.regular_gift_id ?? payment.id,
    deps.clock.now(),
  );
  if (donationId && declines >= declineLimits.perAttempt) return giveUpDonation(deps, donationId);
  const giftId = payment.metadata.regular_gift_id;
  if (giftId && declines >= declineLimits.perAttempt) return giveUpRegularGift(deps, giftId);
  if (!bookingRef) return undefined;
  return releaseUnpaidHold(deps, bookingRef, "declined").catch((error) => {
    // A payment for no booking of ours (another site on the same Stripe account): nothing to do.
    if (error instanceof AppError && error.code === "not-found") return undefined;
    throw error;
  });
}
