import crypto from "node:crypto";
import { and, asc, eq, inArray, lte, sql, sum } from "drizzle-orm";
import type { Clock } from "~/lib/clock";
import type { Database } from "../db/database.server";
import { offlinePayments, offlineRefunds, offlineSubscriptions } from "~db/schema";
import { billingMonthOf, monthAfter, monthlyPaymentDate } from "~/lib/billing-month";
import type {
  NewPayment,
  NewSubscription,
  Payment,
  PaymentProvider,
  Subscription,
  SubscriptionChange,
  SubscriptionInvoice,
} from "./provider.server";
import { WebhookSignatureError } from "./provider.server";
import { cardBrandOf, type PaymentCard } from "~/lib/payment-card";
import { cardDigits, cardProblem, testCards, type CardDetails } from "~/lib/test-cards";

export type { CardDetails };

/**
 * The offline test card provider: the embedded default, and the browser tests. It behaves like
 * Stripe's PaymentIntents (same statuses, same test cards, same messages) but takes no money and
 * needs no network. Its payments live in the database so they survive a restart.
 */
export interface OfflineProvider extends PaymentProvider {
  name: "offline";
  /** The card form's submission: succeeds or fails as Stripe's test card would. */
  confirmCard(clientSecret: string, card: CardDetails): Promise<{ payment: Payment; error?: string }>;
  /**
   * Takes every monthly payment due by the clock's time, as Stripe Billing would on the day: each
   * month once (its payment's id is made from the subscription and the month), from the card the
   * first payment was made with. Answers the invoices it paid; the site records them
   * (app/payments/regular-gifts.server.ts), as it would on Stripe's `invoice.paid`.
   */
  chargeDueSubscriptions(): Promise<SubscriptionInvoice[]>;
  /** A new test card for a subscription's later payments: checked as the card form checks it (decision 090). */
  changeSubscriptionCard(id: string, card: CardDetails): Promise<{ card: PaymentCard } | { error: string }>;
}

type Row = typeof offlinePayments.$inferSelect;
type SubscriptionRow = typeof offlineSubscriptions.$inferSelect;

function toSubscription(row: SubscriptionRow): Subscription {
  return {
    id: row.id,
    customerId: row.customerId,
    status: row.status,
    metadata: row.metadata,
    amountPence: row.amountPence,
  };
}

/** An offline invoice is its one payment: paid once the payment succeeded. */
function toInvoice(row: Row): SubscriptionInvoice {
  const status = row.status === "succeeded" ? "paid" : row.status === "canceled" ? "void" : "open";
  return {
    id: row.id,
    subscriptionId: row.metadata.subscription_id ?? "",
    status,
    amountPence: row.amountPence,
    currency: row.currency,
    createdAt: row.createdAt,
    paidAt: row.status === "succeeded" ? row.succeededAt : null,
    card: row.cardBrand && row.cardLast4 ? { brand: row.cardBrand, last4: row.cardLast4 } : null,
    paymentId: row.id,
    clientSecret: row.clientSecret,
  };
}

const hashed = (text: string) => crypto.createHash("sha256").update(text).digest("hex").slice(0, 24);

function toPayment(row: Row): Payment {
  return {
    id: row.id,
    clientSecret: row.clientSecret,
    status: row.status,
    amountPence: row.amountPence,
    currency: row.currency,
    metadata: row.metadata,
    card: row.cardBrand && row.cardLast4 ? { brand: row.cardBrand, last4: row.cardLast4 } : null,
    succeededAt: row.status === "succeeded" ? row.succeededAt : null,
  };
}

export class PaymentNotFoundError extends Error {}

export function offlineProvider(db: Database, clock: Clock): OfflineProvider {
  async function find(where: ReturnType<typeof eq>) {
    const [row] = await db.select().from(offlinePayments).where(where);
    if (!row) throw new PaymentNotFoundError("No such payment.");
    return row;
  }
  const provider: OfflineProvider = {
    name: "offline",
    async createPayment(input: NewPayment) {
      const id = `pi_offline_${crypto.createHash("sha256").update(input.idempotencyKey).digest("hex").slice(0, 24)}`;
      const [row] = await db
        .insert(offlinePayments)
        .values({
          id,
          clientSecret: `${id}_secret_${crypto.randomBytes(12).toString("hex")}`,
          amountPence: input.amountPence,
          currency: "gbp",
          description: input.description,
          metadata: input.metadata,
          receiptEmail: input.receiptEmail,
          status: "requires_payment_method",
          createdAt: clock.now(),
        })
        // The same idempotency key gives back the same payment, as Stripe's does.
        .onConflictDoUpdate({ target: offlinePayments.id, set: { id } })
        .returning();
      return toPayment(row!);
    },
    async retrievePayment(id: string) {
      return toPayment(await find(eq(offlinePayments.id, id)));
    },
    async cancelPayment(id: string) {
      const row = await find(eq(offlinePayments.id, id));
      if (row.status === "requires_payment_method") {
        await db.update(offlinePayments).set({ status: "canceled" }).where(eq(offlinePayments.id, id));
      }
    },
    async refundPayment(id: string, idempotencyKey: string, amountPence?: number) {
      return db.transaction(async (tx) => {
        const [payment] = await tx.select().from(offlinePayments).where(eq(offlinePayments.id, id)).for("update");
        if (!payment) throw new PaymentNotFoundError("No such payment.");
        const [earlier] = await tx
          .select()
          .from(offlineRefunds)
          .where(eq(offlineRefunds.idempotencyKey, idempotencyKey));
        if (earlier) return { id: earlier.id, amountPence: earlier.amountPence };
        // As Stripe: only a succeeded payment, and never more than is left of it.
        if (payment.status !== "succeeded")
          throw new Error(`Payment ${id} has not succeeded, so it cannot be refunded.`);
        const [given] = await tx
          .select({ pence: sum(offlineRefunds.amountPence).mapWith(Number) })
          .from(offlineRefunds)
          .where(eq(offlineRefunds.paymentId, id));
        const left = payment.amountPence - (given?.pence ?? 0);
        const amount = amountPence ?? left;
        if (amount <= 0 || amount > left)
          throw new Error(`Refund of ${amount}p is more than the ${left}p left of ${id}.`);
        const now = clock.now();
        const refundId = `re_offline_${crypto.createHash("sha256").update(idempotencyKey).digest("hex").slice(0, 24)}`;
        await tx
          .insert(offlineRefunds)
          .values({ id: refundId, idempotencyKey, paymentId: id, amountPence: amount, createdAt: now });
        await tx.update(offlinePayments).set({ refundedAt: now }).where(eq(offlinePayments.id, id));
        return { id: refundId, amountPence: amount };
      });
    },
    async parseWebhook(): Promise<never> {
      // The offline provider reports payments directly (confirmCard); nothing may pose as it.
      throw new WebhookSignatureError("The offline test provider sends no webhooks.");
    },
    async createSubscription(input: NewSubscription) {
      const id = `sub_offline_${hashed(input.idempotencyKey)}`;
      const now = clock.now();
      const first = await provider.createPayment({
        amountPence: input.amountPence,
        description: input.description,
        metadata: { ...input.metadata, subscription_id: id },
        receiptEmail: input.email,
        idempotencyKey: `${input.idempotencyKey}:first`,
      });
      await db
        .insert(offlineSubscriptions)
        .values({
          id,
          customerId: `cus_offline_${hashed(input.idempotencyKey)}`,
          email: input.email,
          amountPence: input.amountPence,
          dayOfMonth: input.dayOfMonth,
          status: "incomplete",
          metadata: input.metadata,
          firstPaymentId: first.id,
          nextChargeAt: input.secondPaymentAt,
          createdAt: now,
        })
        // The same idempotency key gives back the same subscription, as Stripe's does.
        .onConflictDoNothing({ target: offlineSubscriptions.id });
      const [row] = await db.select().from(offlineSubscriptions).where(eq(offlineSubscriptions.id, id));
      const [payment] = await db.select().from(offlinePayments).where(eq(offlinePayments.id, first.id));
      return {
        subscription: toSubscription(row!),
        firstInvoice: toInvoice(payment!),
        clientSecret: first.clientSecret,
      };
    },
    async retrieveSubscription(id: string) {
      const [row] = await db.select().from(offlineSubscriptions).where(eq(offlineSubscriptions.id, id));
      if (!row) throw new PaymentNotFoundError("No such subscription.");
      return toSubscription(row);
    },
    async retrieveInvoice(id: string) {
      const row = await find(eq(offlinePayments.id, id));
      if (!row.metadata.subscription_id) throw new PaymentNotFoundError("No such invoice.");
      return toInvoice(row);
    },
    async listPaidInvoices(subscriptionId: string) {
      const rows = await db
        .select()
        .from(offlinePayments)
        .where(
          and(
            sql`${offlinePayments.metadata}->>'subscription_id' = ${subscriptionId}`,
            eq(offlinePayments.status, "succeeded"),
          ),
        )
        .orderBy(asc(offlinePayments.createdAt));
      return rows.map(toInvoice);
    },
    async cancelSubscription(id: string) {
      const [cancelled] = await db
        .update(offlineSubscriptions)
        .set({ status: "canceled", canceledAt: clock.now() })
        .where(and(eq(offlineSubscriptions.id, id), sql`${offlineSubscriptions.status} <> 'canceled'`))
        .returning();
      // As Stripe voids an incomplete subscription's open first invoice: no card can pay it now.
      if (cancelled) {
        await db
          .update(offlinePayments)
          .set({ status: "canceled" })
          .where(
            and(
              eq(offlinePayments.id, cancelled.firstPaymentId),
              eq(offlinePayments.status, "requires_payment_method"),
            ),
          );
      }
    },
    async changeSubscription(id: string, change: SubscriptionChange) {
      // A pause is the next payment moved past it: the site gives `nextPaymentAt` with every pause
      // and resumption, so the months between are never charged.
      const set = {
        ...(change.amountPence !== undefined && { amountPence: change.amountPence }),
        ...(change.dayOfMonth !== undefined && { dayOfMonth: change.dayOfMonth }),
        ...(change.nextPaymentAt !== undefined && { nextChargeAt: change.nextPaymentAt }),
      };
      if (Object.keys(set).length === 0) return;
      const [row] = await db
        .update(offlineSubscriptions)
        .set(set)
        .where(and(eq(offlineSubscriptions.id, id), sql`${offlineSubscriptions.status} <> 'canceled'`))
        .returning({ id: offlineSubscriptions.id });
      if (!row) throw new PaymentNotFoundError("No such running subscription.");
    },
    async startCardChange(): Promise<never> {
      throw new Error("The offline test provider takes a new card by its own form (changeSubscriptionCard).");
    },
    async finishCardChange(): Promise<never> {
      throw new Error("The offline test provider takes a new card by its own form (changeSubscriptionCard).");
    },
    async changeSubscriptionCard(id: string, card: CardDetails) {
      const problem = cardProblem(card, clock.now());
      if (problem) return { error: problem };
      const result = testCards[cardDigits(card.number)]!;
      if (result.outcome === "declined") return { error: result.message };
      const digits = cardDigits(card.number);
      const saved = { brand: cardBrandOf(digits), last4: digits.slice(-4) };
      const [row] = await db
        .update(offlineSubscriptions)
        .set({ cardBrand: saved.brand, cardLast4: saved.last4 })
        .where(and(eq(offlineSubscriptions.id, id), sql`${offlineSubscriptions.status} <> 'canceled'`))
        .returning({ id: offlineSubscriptions.id });
      if (!row) throw new PaymentNotFoundError("No such running subscription.");
      return { card: saved };
    },
    async chargeDueSubscriptions() {
      const now = clock.now();
      const due = await db
        .select({ id: offlineSubscriptions.id })
        .from(offlineSubscriptions)
        .where(
          and(
            inArray(offlineSubscriptions.status, ["active", "past_due"]),
            lte(offlineSubscriptions.nextChargeAt, now),
          ),
        );
      // Every test card a subscription can start with succeeds again; a failing month is a later slice's.
      const paid: SubscriptionInvoice[] = [];
      for (const { id } of due) {
        // Month by month, so a site that was stopped for a while takes each month it missed, once.
        for (;;) {
          const invoice = await db.transaction(async (tx) => {
            const [sub] = await tx
              .select()
              .from(offlineSubscriptions)
              .where(eq(offlineSubscriptions.id, id))
              .for("update");
            if (!sub || sub.status === "canceled" || sub.nextChargeAt.getTime() > now.getTime()) return undefined;
            const month = billingMonthOf(sub.nextChargeAt);
            const paymentId = `pi_offline_${hashed(`${sub.id}:${month}`)}`;
            const [row] = await tx
              .insert(offlinePayments)
              .values({
                id: paymentId,
                clientSecret: `${paymentId}_secret_${crypto.randomBytes(12).toString("hex")}`,
                amountPence: sub.amountPence,
                currency: "gbp",
                description: `Monthly gift, ${month}`,
                metadata: { ...sub.metadata, subscription_id: sub.id },
                receiptEmail: sub.email,
                status: "succeeded",
                cardBrand: sub.cardBrand,
                cardLast4: sub.cardLast4,
                succeededAt: now,
                // The bill is made on the month's day, whenever it is taken.
                createdAt: sub.nextChargeAt,
              })
              .onConflictDoNothing({ target: offlinePayments.id })
              .returning();
            await tx
              .update(offlineSubscriptions)
              .set({
                status: "active",
                nextChargeAt: monthlyPaymentDate(monthAfter(month), sub.dayOfMonth),
              })
              .where(eq(offlineSubscriptions.id, sub.id));
            return row ? toInvoice(row) : null;
          });
          if (invoice === undefined) break;
          if (invoice?.status === "paid") paid.push(invoice);
        }
      }
      return paid;
    },
    async confirmCard(clientSecret: string, card: CardDetails) {
      const row = await find(eq(offlinePayments.clientSecret, clientSecret));
      if (row.status !== "requires_payment_method") return { payment: toPayment(row) };
      const problem = cardProblem(card, clock.now());
      if (problem) return { payment: toPayment(row), error: problem };
      const result = testCards[cardDigits(card.number)]!;
      if (result.outcome === "declined") {
        await db.update(offlinePayments).set({ lastError: result.message }).where(eq(offlinePayments.id, row.id));
        return { payment: toPayment(row), error: result.message };
      }
      const digits = cardDigits(card.number);
      const [updated] = await db
        .update(offlinePayments)
        // Only what Stripe would tell us of the card: its brand and last four digits.
        .set({
          status: "succeeded",
          lastError: null,
          cardBrand: cardBrandOf(digits),
          cardLast4: digits.slice(-4),
          succeededAt: clock.now(),
        })
        .where(eq(offlinePayments.id, row.id))
        .returning();
      // A subscription's first payment: the subscription starts, and keeps the card for later months.
      const subscriptionId = updated!.metadata.subscription_id;
      if (subscriptionId) {
        await db
          .update(offlineSubscriptions)
          .set({ status: "active", cardBrand: updated!.cardBrand, cardLast4: updated!.cardLast4 })
          .where(and(eq(offlineSubscriptions.id, subscriptionId), eq(offlineSubscriptions.status, "incomplete")));
      }
      return { payment: toPayment(updated!) };
    },
  };
  return provider;
}
