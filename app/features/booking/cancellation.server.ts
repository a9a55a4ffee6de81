import { and, asc, count, eq, isNotNull, like } from "drizzle-orm";
import { recordAudit } from "~/infra/audit/audit.server";
import type { Queryable } from "~/infra/db/database.server";
import { announceChange } from "~/infra/live/changes.server";
import { shortCode } from "~/lib/booking-code";
import { AppError } from "~/lib/errors";
import { validate } from "~/lib/forms";
import { isUuid } from "~/lib/ids";
import { auditLog, bookingHistory, bookings, events, refunds } from "~db/schema";
import { refundForCancellation, retryPendingRefunds, type Refunder, type RefundDeps } from "./refunds.server";
import { finishLatePaymentRefunds } from "./settlement.server";
import { cancelEventSchema, refundMessages } from "./schema";
import { giftNotPaid } from "./gift.server";

// Cancelling an event (docs/decisions/015-bookings-and-refunds.md): sales stop at once, and a job
// in the server process refunds every paid booking, one at a time, each keyed
// `cancel:<booking ref>`. The job starts after the cancellation and again at every start-up while
// a cancelled event still has paid bookings, so a restart carries on where it stopped.

export interface CancellationProgress {
  cancelledAt: string;
  reason: string;
  /** Bookings the cancellation refunds: those refunded or waiting, and those still to do. */
  total: number;
  refunded: number;
  /** Still being worked through. */
  running: boolean;
  /** Refunds the provider has not yet made, with its last answer (the first 50). */
  waiting: { bookingRef: string; code: string; attempts: number; error: string | null }[];
  waitingTotal: number;
}

/**
 * Staff cancel an event: it is marked cancelled (sales stop, the public pages say so), unpaid holds
 * are released, and the cancellation is audited, in one transaction. The refunds follow (the job).
 */
export async function cancelEvent(
  deps: Pick<RefundDeps, "db" | "clock" | "payments">,
  staff: { id: string; email: string },
  eventId: string,
  input: { reason: unknown },
): Promise<CancellationProgress> {
  const validation = validate<typeof cancelEventSchema, "reason">(cancelEventSchema, input);
  if (!validation.ok) {
    throw new AppError("invalid", refundMessages.cancelReason, { fields: validation.errors });
  }
  const { reason } = validation.data;
  if (!isUuid(eventId)) throw new AppError("not-found", "There is no such event.");
  const now = deps.clock.now();
  const released = await deps.db.transaction(async (tx) => {
    const [event] = await tx.select().from(events).where(eq(events.id, eventId)).for("update");
    if (!event) throw new AppError("not-found", "There is no such event.");
    if (event.cancelledAt) throw new AppError("conflict", "This event is already cancelled.");
    await tx
      .update(events)
      .set({ cancelledAt: now, cancelReason: reason, updatedAt: now })
      .where(eq(events.id, eventId));
    // Visitors half way through paying lose their hold: the event will not take place.
    const holds = await tx
      .update(bookings)
      .set({ status: "cancelled", updatedAt: now })
      .where(and(eq(bookings.eventId, eventId), eq(bookings.status, "held")))
      .returning({ bookingRef: bookings.bookingRef, providerPaymentId: bookings.providerPaymentId });
    if (holds.length > 0) {
      // Their gifts at checkout were never paid either (decision 085).
      for (const h of holds) await giftNotPaid(tx, h.bookingRef, "cancelled", now);
      await tx.insert(bookingHistory).values(
        holds.map((h) => ({
          bookingRef: h.bookingRef,
          status: "cancelled",
          note: "The event was cancelled",
          at: now,
        })),
      );
    }
    const [{ paid } = { paid: 0 }] = await tx
      .select({ paid: count() })
      .from(bookings)
      .where(and(eq(bookings.eventId, eventId), eq(bookings.status, "paid")));
    await recordAudit(tx, {
      staff,
      action: "event.cancelled",
      subject: `event:${eventId}`,
      summary: `Cancelled the event; ${paid} paid ${paid === 1 ? "booking" : "bookings"} to refund`,
      at: now,
    });
    await announceChange(tx, "events");
    await announceChange(tx, "availability");
    return holds;
  });
  for (const hold of released) {
    if (hold.providerPaymentId) await deps.payments.cancelPayment(hold.providerPaymentId).catch(() => undefined);
  }
  return (await cancellationProgress(deps, eventId))!;
}

/** How far an event's refunds have got; undefined when it is not cancelled. */
export async function cancellationProgress(
  { db }: { db: Queryable },
  eventId: string,
): Promise<CancellationProgress | undefined> {
  if (!isUuid(eventId)) return undefined;
  const [event] = await db
    .select({ cancelledAt: events.cancelledAt, reason: events.cancelReason })
    .from(events)
    .where(eq(events.id, eventId));
  if (!event?.cancelledAt) return undefined;
  const [[{ toDo } = { toDo: 0 }], byStatus, waiting] = await Promise.all([
    db
      .select({ toDo: count() })
      .from(bookings)
      .where(and(eq(bookings.eventId, eventId), eq(bookings.status, "paid"))),
    db
      .select({ status: refunds.status, n: count() })
      .from(refunds)
      .innerJoin(bookings, eq(bookings.bookingRef, refunds.bookingRef))
      .where(and(eq(bookings.eventId, eventId), like(refunds.key, "cancel:%")))
      .groupBy(refunds.status),
    db
      .select({ bookingRef: refunds.bookingRef, attempts: refunds.attempts, error: refunds.lastError })
      .from(refunds)
      .innerJoin(bookings, eq(bookings.bookingRef, refunds.bookingRef))
      .where(and(eq(bookings.eventId, eventId), like(refunds.key, "cancel:%"), eq(refunds.status, "pending")))
      .orderBy(asc(refunds.createdAt))
      .limit(50),
  ]);
  const counted = Object.fromEntries(byStatus.map((row) => [row.status, Number(row.n)]));
  const refunded = counted.succeeded ?? 0;
  const waitingTotal = counted.pending ?? 0;
  const total = Number(toDo) + refunded + waitingTotal + (counted.failed ?? 0);
  return {
    cancelledAt: event.cancelledAt.toISOString(),
    reason: event.reason ?? "",
    total,
    refunded,
    running: refunded < total,
    waiting: waiting.map((w) => ({
      bookingRef: w.bookingRef!,
      code: shortCode(w.bookingRef!),
      attempts: w.attempts,
      error: w.error,
    })),
    waitingTotal,
  };
}

/** Cancelled events that still have paid bookings to refund. */
export async function cancelledEventsToRefund(db: Queryable): Promise<string[]> {
  const rows = await db
    .selectDistinct({ id: events.id })
    .from(events)
    .innerJoin(bookings, eq(bookings.eventId, events.id))
    .where(and(isNotNull(events.cancelledAt), eq(bookings.status, "paid")));
  return rows.map((row) => row.id);
}

/** Who the audit log says cancelled the event: the refunds are theirs. */
async function cancelledBy(db: Queryable, eventId: string): Promise<Refunder> {
  const [entry] = await db
    .select({ id: auditLog.staffUserId, email: auditLog.staffEmail })
    .from(auditLog)
    .where(and(eq(auditLog.action, "event.cancelled"), eq(auditLog.subject, `event:${eventId}`)))
    .limit(1);
  return entry ?? { id: null, email: "the site (event cancelled)" };
}

/**
 * Refunds a cancelled event's paid bookings one at a time until none is left (or `shouldStop`).
 * Each refund locks its booking and is keyed `cancel:<ref>`, so two processes doing this at once
 * refund each booking once. `pauseMs` slows it down between bookings (tests stop it half way).
 */
export async function refundCancelledEvent(
  deps: RefundDeps,
  eventId: string,
  options: { pauseMs?: number; shouldStop?: () => boolean } = {},
): Promise<number> {
  const [event] = await deps.db.select().from(events).where(eq(events.id, eventId));
  if (!event?.cancelledAt) return 0;
  const staff = await cancelledBy(deps.db, eventId);
  let done = 0;
  const skipped = new Set<string>();
  for (;;) {
    if (options.shouldStop?.()) break;
    const candidates = await deps.db
      .select({ bookingRef: bookings.bookingRef })
      .from(bookings)
      .where(and(eq(bookings.eventId, eventId), eq(bookings.status, "paid")))
      .orderBy(asc(bookings.paidAt), asc(bookings.bookingRef))
      .limit(skipped.size + 1);
    const next = candidates.find((c) => !skipped.has(c.bookingRef));
    if (!next) break;
    try {
      await refundForCancellation(deps, staff, next.bookingRef, event.cancelReason ?? "The event was cancelled.");
      done += 1;
    } catch (error) {
      // Another process got there first, or the booking cannot be refunded: leave it for staff.
      if (!(error instanceof AppError)) throw error;
      console.error(`Booking ${next.bookingRef} of cancelled event ${eventId}: ${error.message}`);
      skipped.add(next.bookingRef);
    }
    if (options.pauseMs) await new Promise((resolve) => setTimeout(resolve, options.pauseMs));
  }
  return done;
}

/**
 * The booking refunds the server process looks after, one run of them: pending refunds asked for
 * again, then cancelled events' bookings worked through. Run by a background job (server/services.ts)
 * at start-up, so a restart carries on, every 30 seconds, and at once after a cancellation.
 */
export async function runBookingRefunds(
  deps: RefundDeps,
  options: { pauseMs?: number; shouldStop: () => boolean },
): Promise<void> {
  await retryPendingRefunds(deps, options.shouldStop);
  await finishLatePaymentRefunds(deps, options.shouldStop);
  for (const eventId of await cancelledEventsToRefund(deps.db)) {
    await refundCancelledEvent(deps, eventId, options);
  }
}
