import { timingSafeEqual } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { announceChange } from "~/infra/live/changes.server";
import { providerUnavailable, type Payment, type PaymentDeps } from "~/infra/payments/provider.server";
import { AppError } from "~/lib/errors";
import { isUuid } from "~/lib/ids";
import { bookings } from "~db/schema";
import { recordHistory } from "./history.server";
import { giftNotPaid } from "./gift.server";
import type { OwnAttempt, ReleasedHold, ReleaseReason } from "./schema";

// Giving an unpaid attempt's seats back (decision 019): a declined card, a changed quantity, a
// visitor who left, a hold that ran out; judged by the payment provider, never by the browser.

/** Why an unpaid attempt's seats go back, as its history tells staff. */
const releaseNotes: Record<ReleaseReason, string> = {
  declined: "The card was declined",
  quantity: "The visitor changed the number of tickets",
  left: "The visitor left the booking page",
  replaced: "Replaced by a new attempt",
  expired: "The hold ran out with no payment made",
};

/** What became of a hold asked to be released (ReleasedHold), the same however often it is asked. */
export type HoldRelease = ReleasedHold["status"];

// Payment states in which no money can have been taken, so the seats may go back.
const unpaidStatuses = new Set(["requires_payment_method", "requires_confirmation", "canceled"]);
const paidBookingStatuses = new Set(["paid", "refund_pending", "refunded"]);

const noSuchAttempt = () => new AppError("not-found", "There is no unpaid booking with this reference.");

function sameSecret(given: string, actual: string) {
  const a = Buffer.from(given);
  const b = Buffer.from(actual);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Gives an unpaid attempt's seats back at once (a declined card, a changed quantity, a visitor who
 * left), judged by what the provider says of its payment, never by the browser: a payment that
 * succeeded, or that the provider is still working on, keeps its hold. The payment is cancelled at
 * the provider before the seats go back, so it can no longer succeed for seats someone else may
 * take. (If it somehow still does, settling it is the ordinary late-payment path: the seats if they
 * are free, otherwise a refund.) `proof`, when given, must hold for the payment (the visitor's own
 * attempt); otherwise the attempt is treated as unknown.
 */
export async function releaseUnpaidHold(
  deps: Pick<PaymentDeps, "db" | "payments" | "clock">,
  bookingRef: string,
  reason: ReleaseReason,
  proof?: (payment: Payment) => boolean,
): Promise<HoldRelease> {
  if (!isUuid(bookingRef)) throw noSuchAttempt();
  const [booking] = await deps.db.select().from(bookings).where(eq(bookings.bookingRef, bookingRef));
  // Without a payment the visitor was never answered, so there is nothing they could release.
  if (!booking?.providerPaymentId) throw noSuchAttempt();
  const ask = (what: string, work: () => Promise<Payment>) =>
    work().catch((error) => {
      throw providerUnavailable(error, `${what} for booking ${bookingRef}`);
    });
  let payment = await ask("reading the payment", () => deps.payments.retrievePayment(booking.providerPaymentId!));
  if (proof && !proof(payment)) throw noSuchAttempt();
  if (paidBookingStatuses.has(booking.status)) return "paid";
  if (booking.status !== "held") return "released";
  if (payment.status !== "canceled") {
    if (!unpaidStatuses.has(payment.status)) return payment.status === "succeeded" ? "paid" : "in-progress";
    payment = await ask("cancelling the payment", async () => {
      await deps.payments.cancelPayment(payment.id);
      return deps.payments.retrievePayment(payment.id);
    });
    // Paid, or taken up by the provider, between our two questions: the hold stays.
    if (payment.status !== "canceled") return payment.status === "succeeded" ? "paid" : "in-progress";
  }
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .update(bookings)
      .set({ status: "cancelled", updatedAt: now })
      .where(and(eq(bookings.bookingRef, bookingRef), eq(bookings.status, "held")))
      .returning();
    if (!row) return;
    await recordHistory(tx, bookingRef, "cancelled", releaseNotes[reason], now);
    await giftNotPaid(tx, bookingRef, "cancelled", now); // Its gift was never paid either (decision 085).
    await announceChange(tx, "availability");
  });
  return "released";
}

/** The visitor's own attempt released, proved by its payment's client secret (which only their browser has). */
export function releaseOwnHold(
  deps: Pick<PaymentDeps, "db" | "payments" | "clock">,
  attempt: OwnAttempt,
  reason: ReleaseReason,
) {
  return releaseUnpaidHold(deps, attempt.bookingRef, reason, (payment) =>
    sameSecret(attempt.clientSecret, payment.clientSecret),
  );
}
