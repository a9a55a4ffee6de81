import crypto from "node:crypto";
import { eq, sum } from "drizzle-orm";
import type { Clock } from "~/lib/clock";
import type { Database } from "../db/database.server";
import { offlinePayments, offlineRefunds } from "~db/schema";
import type { NewPayment, Payment, PaymentProvider } from "./provider.server";
import { WebhookSignatureError } from "./provider.server";
import { cardBrandOf } from "~/lib/payment-card";
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
}

type Row = typeof offlinePayments.$inferSelect;

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
  return {
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
      return { payment: toPayment(updated!) };
    },
  };
}
