import { z } from "zod";
import { readJsonBody } from "~/infra/http/api.server";
import { attemptDeclinedTooOften, declineLimits, declinesOf } from "~/infra/payments/card-testing.server";
import type { OfflineProvider } from "~/infra/payments/offline.server";
import type { PaymentDeps } from "~/infra/payments/provider.server";
import { AppError } from "~/lib/errors";
import type { GiftDeps } from "~/features/donations/regular-gifts.server";
import { paymentFailed, settlePayment } from "./settle.server";

const cardSchema = z.object({
  clientSecret: z.string().max(200),
  card: z.object({ number: z.string().max(40), expiry: z.string().max(10), cvc: z.string().max(10) }),
});

/**
 * POST /api/payments/offline/confirm, the offline test provider's card form. Like Stripe it
 * answers the card's outcome: on success the booking or donation is settled at once, and on a
 * decline a booking's seats go back, as Stripe's webhooks would. A declined card is an AppError
 * ("card-declined", 402) with the provider's words for the visitor.
 */
export async function confirmOfflineCard(deps: GiftDeps, request: Request): Promise<{ status: string }> {
  const payments = deps.payments as Partial<OfflineProvider> & PaymentDeps["payments"];
  if (payments.name !== "offline" || !payments.confirmCard) {
    throw new AppError("not-found", "Card payments here go through Stripe.");
  }
  const parsed = cardSchema.safeParse(await readJsonBody(request));
  if (!parsed.success) throw new AppError("invalid", "Send the card details.");
  const result = await payments.confirmCard(parsed.data.clientSecret, parsed.data.card).catch(() => {
    throw new AppError("not-found", "This payment could not be found.");
  });
  const attempt =
    result.payment.metadata.booking_ref ??
    result.payment.metadata.donation_id ??
    result.payment.metadata.regular_gift_id;
  // Declined too often (decision 026): the payment was cancelled, and no card is tried on it again.
  const declinedTooOften = async () =>
    attempt !== undefined && (await declinesOf(deps.db, attempt)) >= declineLimits.perAttempt;
  if (result.payment.status === "canceled" && (await declinedTooOften())) {
    throw new AppError("too-many-requests", attemptDeclinedTooOften);
  }
  if (result.error) {
    // Declined: the seats go back now, not when the hold runs out (the visitor may try again).
    await paymentFailed(deps, result.payment.id).catch((error) => {
      console.error("Releasing the seats of a declined offline payment failed:", (error as Error).message);
    });
    if (await declinedTooOften()) throw new AppError("too-many-requests", attemptDeclinedTooOften);
    throw new AppError("card-declined", result.error);
  }
  if (result.payment.status === "succeeded") {
    // The payment as the provider has just answered it: settling need not ask again.
    await settlePayment(deps, result.payment.id, result.payment).catch((error) => {
      // The return page settles it again; nothing is lost.
      console.error("Settling after an offline payment failed:", (error as Error).message);
    });
  }
  return { status: result.payment.status };
}
