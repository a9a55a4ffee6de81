import { z } from "zod";
import { readJsonBody } from "~/infra/http/api.server";
import { attemptDeclinedTooOften, declineLimits, declinesOf } from "~/infra/payments/card-testing.server";
import type { OfflineProvider } from "~/infra/payments/offline.server";
import type { PaymentDeps } from "~/infra/payments/provider.server";
import { AppError } from "~/lib/errors";
import type { GiftDeps } from "~/features/donations/regular-gifts.server";
import { recordGiftMandate } from "~/features/donations/direct-debit.server";
import { bankMessages } from "~/lib/bacs";
import { eq } from "drizzle-orm";
import { regularGifts } from "~db/schema";
import { paymentFailed, settlePayment } from "./settle.server";

const cardSchema = z.object({
  clientSecret: z.string().max(200),
  card: z.object({ number: z.string().max(40), expiry: z.string().max(10), cvc: z.string().max(10) }),
});

const bankSchema = z.object({
  clientSecret: z.string().max(200),
  bank: z.object({
    accountName: z.string().max(200),
    sortCode: z.string().max(20),
    accountNumber: z.string().max(20),
    confirmed: z.string().max(10),
  }),
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
  const body = await readJsonBody(request);
  // A Direct Debit gift's first payment: the bank form's details instead of a card (decision 092).
  if (body && typeof body === "object" && "bank" in body) return confirmOfflineBank(deps, payments, body);
  const parsed = cardSchema.safeParse(body);
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

/**
 * The offline bank form (Stripe's test sort code and accounts): the mandate is made and the first
 * payment is processing until the bank settles it, days later by the site's clock; the gift keeps
 * the mandate's details and its confirmation is queued. Refused details answer each field's message
 * and change nothing.
 */
async function confirmOfflineBank(
  deps: GiftDeps,
  payments: Partial<OfflineProvider> & PaymentDeps["payments"],
  body: unknown,
): Promise<{ status: string }> {
  const parsed = bankSchema.safeParse(body);
  if (!parsed.success || !payments.confirmBank) throw new AppError("invalid", "Send the bank details.");
  const result = await payments.confirmBank(parsed.data.clientSecret, parsed.data.bank).catch(() => {
    throw new AppError("not-found", "This payment could not be found.");
  });
  if (result.errors) {
    const first = Object.values(result.errors)[0] ?? bankMessages.accountNumber;
    throw new AppError("invalid", first, { fields: result.errors });
  }
  const giftId = result.payment.metadata.regular_gift_id;
  if (result.mandate && giftId) {
    const [gift] = await deps.db.select({ id: regularGifts.id }).from(regularGifts).where(eq(regularGifts.id, giftId));
    if (gift) await recordGiftMandate(deps, gift.id, result.mandate);
  }
  return { status: result.payment.status };
}
