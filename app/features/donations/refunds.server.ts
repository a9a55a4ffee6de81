import { and, eq, isNotNull } from "drizzle-orm";
import { recordAudit } from "~/infra/audit/audit.server";
import type { OutboxWorker } from "~/infra/email/outbox.server";
import { queueMail } from "~/infra/email/outbox.server";
import type { PaymentDeps } from "~/infra/payments/provider.server";
import { AppError } from "~/lib/errors";
import { validate } from "~/lib/forms";
import { isUuid } from "~/lib/ids";
import { formatPounds } from "~/lib/money";
import type { Queryable } from "~/infra/db/database.server";
import { bookings, donations, refunds } from "~db/schema";
import { donationRefundNotice } from "./refund-notice.server";
import { donationRefundSchema, staffDonationMessages } from "./schema";

// Refunding a donation, exactly once: the refund row is written (with the form's one-time key, the
// donation row locked) before the provider is asked, and a pending refund is sent again with the
// same idempotency key until the provider has made it. A refunded donation is never claimed.

export type RefundDeps = PaymentDeps & { outbox: Pick<OutboxWorker, "deliver"> };

export type DonationRefundOutcome =
  | { outcome: "refunded"; refundId: string }
  | { outcome: "pending"; refundId: string }
  /** This key's refund was asked for already (a second click): nothing new was done. */
  | { outcome: "already"; refundId: string; status: string };

/**
 * Refunds a paid donation in full, for `reason`, once per `key` (the page's one-time token): the
 * donation becomes `refund_pending` with a pending refund and an audit entry, in one transaction;
 * then the provider is asked. A provider failure leaves it pending for finishPendingDonationRefunds.
 */
export async function refundDonation(
  deps: RefundDeps,
  staff: { id: string; email: string },
  input: { donationId: string; key: string; reason: unknown },
): Promise<DonationRefundOutcome> {
  if (!isUuid(input.donationId)) throw new AppError("not-found", "There is no such donation.");
  const checked = validate(donationRefundSchema, { reason: input.reason });
  if (!checked.ok)
    throw new AppError("invalid", staffDonationMessages.reason, { fields: checked.errors as Record<string, string> });
  const key = input.key.trim();
  if (!key || key.length > 100) throw new AppError("invalid", "Open the donation's page again and refund from there.");
  const now = deps.clock.now();

  const started = await deps.db.transaction(async (tx) => {
    const [donation] = await tx.select().from(donations).where(eq(donations.id, input.donationId)).for("update");
    if (!donation) throw new AppError("not-found", "There is no such donation.");
    const [earlier] = await tx.select().from(refunds).where(eq(refunds.key, key));
    if (earlier) return { outcome: "already", refundId: earlier.id, status: earlier.status } as const;
    if (donation.status === "refund_pending" || donation.status === "refunded") {
      throw new AppError("conflict", "This donation is already refunded, or its refund is under way.");
    }
    if (donation.status !== "paid" || !donation.providerPaymentId) {
      throw new AppError("conflict", "Only a paid donation can be refunded.");
    }
    const refundId = crypto.randomUUID();
    await tx.insert(refunds).values({
      id: refundId,
      key,
      donationId: donation.id,
      amountPence: donation.amountPence,
      reason: checked.data.reason,
      status: "pending",
      staffUserId: staff.id,
      staffEmail: staff.email,
      createdAt: now,
    });
    await tx.update(donations).set({ status: "refund_pending", updatedAt: now }).where(eq(donations.id, donation.id));
    await recordAudit(tx, {
      staff,
      action: "donation.refunded",
      subject: `donation:${donation.id}`,
      summary: `Refunded a donation of ${formatPounds(donation.amountPence)}${donation.giftAidClaimId ? " that was already in a Gift Aid claim" : ""}`,
      at: now,
    });
    return { outcome: "new", refundId } as const;
  });
  if (started.outcome === "already") return started;
  return sendDonationRefund(deps, started.refundId);
}

/**
 * Asks the provider for a pending refund (again), with the idempotency key `refund-<id>` so it is
 * made once however often this runs; on success the donation is `refunded` and the donor's notice
 * is queued in the same transaction, then sent.
 */
export async function sendDonationRefund(
  deps: RefundDeps,
  refundId: string,
): Promise<Extract<DonationRefundOutcome, { outcome: "refunded" | "pending" }>> {
  const [row] = await deps.db
    .select({ refund: refunds, donation: donations })
    .from(refunds)
    .innerJoin(donations, eq(donations.id, refunds.donationId))
    .where(eq(refunds.id, refundId));
  if (!row) throw new AppError("not-found", "There is no such refund.");
  if (row.refund.status === "succeeded") return { outcome: "refunded", refundId };
  let given: { id: string; amountPence: number };
  try {
    // Its own amount, never "all that is left": a gift added to a booking shares the booking's payment (decision 085).
    given = await deps.payments.refundPayment(
      row.donation.providerPaymentId!,
      `refund-${refundId}`,
      row.refund.amountPence,
    );
  } catch (error) {
    console.error(`Refund ${refundId} of donation ${row.donation.id} failed for now:`, error);
    await deps.db
      .update(refunds)
      .set({ attempts: row.refund.attempts + 1, lastError: String((error as Error).message ?? error).slice(0, 500) })
      .where(eq(refunds.id, refundId));
    return { outcome: "pending", refundId };
  }

  const now = deps.clock.now();
  const firstTime = await deps.db.transaction(async (tx) => {
    const [done] = await tx
      .update(refunds)
      .set({
        status: "succeeded",
        providerRefundId: given.id,
        attempts: row.refund.attempts + 1,
        lastError: null,
        completedAt: now,
      })
      .where(and(eq(refunds.id, refundId), eq(refunds.status, "pending")))
      .returning({ id: refunds.id });
    if (!done) return false;
    const [donation] = await tx
      .update(donations)
      .set({ status: "refunded", refundedAt: now, updatedAt: now })
      .where(eq(donations.id, row.donation.id))
      .returning();
    await queueMail(tx, {
      kind: "donation-refunded",
      about: donation!.id,
      message: await donationRefundNotice({
        donationId: donation!.id,
        donorName: donation!.donorName,
        email: donation!.email,
        amountPence: row.refund.amountPence,
        paidAt: donation!.paidAt ?? donation!.createdAt,
        refundedAt: now,
        charity: deps.charity,
      }),
      now,
    });
    return true;
  });
  if (firstTime) await deps.outbox.deliver("donation-refunded", row.donation.id);
  return { outcome: "refunded", refundId };
}

/**
 * Sends again every donation refund still pending (the provider was down, or the process stopped
 * half way): run at start-up and every 30 seconds by server/services.ts (with the booking refunds). How many it finished.
 */
export async function finishPendingDonationRefunds(deps: RefundDeps): Promise<number> {
  const pending = await deps.db
    .select({ id: refunds.id })
    .from(refunds)
    .where(and(eq(refunds.status, "pending"), isNotNull(refunds.donationId)));
  let finished = 0;
  for (const { id } of pending) {
    if ((await sendDonationRefund(deps, id)).outcome === "refunded") finished += 1;
  }
  return finished;
}

/** The paid donations made at checkout with the bookings of an event (decision 085): how many, and their sum. */
export async function giftsOfEvent(db: Queryable, eventId: string): Promise<{ count: number; pence: number }> {
  if (!isUuid(eventId)) return { count: 0, pence: 0 };
  const rows = await paidGiftsOf(db, eventId);
  return { count: rows.length, pence: rows.reduce((sum, row) => sum + row.amountPence, 0) };
}

function paidGiftsOf(db: Queryable, eventId: string) {
  return db
    .select({ id: donations.id, amountPence: donations.amountPence })
    .from(donations)
    .innerJoin(bookings, eq(bookings.bookingRef, donations.bookingRef))
    .where(and(eq(bookings.eventId, eventId), eq(donations.status, "paid")));
}

/**
 * Refunds, when staff ask as they cancel an event, every paid donation made at checkout with its
 * bookings (decision 085): each once (keyed `cancel-gift:<donation id>`), each its own part of its
 * booking's payment. Without asking, a cancelled event's refunds give back the tickets only.
 */
export async function refundGiftsOfEvent(
  deps: RefundDeps,
  staff: { id: string; email: string },
  eventId: string,
  reason: string,
): Promise<number> {
  let refunded = 0;
  for (const gift of await paidGiftsOf(deps.db, eventId)) {
    await refundDonation(deps, staff, { donationId: gift.id, key: `cancel-gift:${gift.id}`, reason });
    refunded += 1;
  }
  return refunded;
}
