import crypto from "node:crypto";
import { and, asc, eq, inArray, lte, sql, sum } from "drizzle-orm";
import type { Clock } from "~/lib/clock";
import type { Database } from "../db/database.server";
import { offlineMandates, offlinePayments, offlineRefunds, offlineSubscriptions } from "~db/schema";
import { billingMonthOf, monthAfter, monthlyPaymentDate } from "~/lib/billing-month";
import {
  addWorkingDays,
  bacsWorkingDays,
  sortCodeDigits,
  accountNumberDigits,
  testBankAccounts,
  testBankProblems,
  type BankDetails,
  type BankField,
} from "~/lib/bacs";
import type {
  Mandate,
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
  /**
   * The bank form's submission for a Direct Debit gift's first payment (decision 092): Stripe's test
   * sort code and accounts; a mandate is made and the payment is `processing` until the bank settles
   * it (settleBankPayments). A refusal answers each field's message and changes nothing.
   */
  confirmBank(
    clientSecret: string,
    details: BankDetails,
  ): Promise<{ payment: Payment; mandate?: Mandate; errors?: Partial<Record<BankField, string>> }>;
  /** New bank details for a Direct Debit subscription's later payments: a new mandate. */
  changeSubscriptionBank(
    id: string,
    details: BankDetails,
  ): Promise<{ mandate: Mandate } | { errors: Partial<Record<BankField, string>> }>;
  /**
   * The bank's answers due by the clock: each Direct Debit payment `processing` whose working days
   * have passed succeeds or fails as its test account says, and a refused mandate becomes inactive.
   * Answers the invoices paid and failed, and the mandates whose state changed (set up, or refused).
   */
  settleBankPayments(): Promise<{ paid: SubscriptionInvoice[]; failed: SubscriptionInvoice[]; mandates: string[] }>;
}

type MandateRow = typeof offlineMandates.$inferSelect;

function toMandate(row: MandateRow): Mandate {
  return {
    id: row.id,
    customerId: row.customerId,
    reference: row.reference,
    status: row.status as Mandate["status"],
    accountName: row.accountName,
    sortCode: row.sortCode,
    last4: row.last4,
  };
}

/** Stripe's words for a Bacs payment the bank did not pay. */
const bankFailures = {
  fails: "The customer's bank account could not be debited (debit_not_authorized).",
  refused: "The customer's bank refused the Direct Debit Instruction, so the mandate is inactive.",
} as const;

type Row = typeof offlinePayments.$inferSelect;
type SubscriptionRow = typeof offlineSubscriptions.$inferSelect;

function toSubscription(row: SubscriptionRow): Subscription {
  return {
    id: row.id,
    customerId: row.customerId,
    status: row.status,
    metadata: row.metadata,
    // What later months take: a change waiting for the next collection is what the donor chose.
    amountPence: row.pendingChange?.amountPence ?? row.amountPence,
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
  /** A mandate for Stripe's test account the donor typed: only what Stripe would tell us of it. */
  async function newMandate(customerId: string, details: BankDetails, now: Date): Promise<Mandate> {
    const account = accountNumberDigits(details.accountNumber)!;
    const id = `mandate_offline_${crypto.randomBytes(12).toString("hex")}`;
    const [row] = await db
      .insert(offlineMandates)
      .values({
        id,
        customerId,
        reference: `KVT${crypto.randomBytes(7).toString("hex").toUpperCase()}`.slice(0, 16),
        accountName: details.accountName.trim(),
        sortCode: sortCodeDigits(details.sortCode)!,
        last4: account.slice(-4),
        status: "pending",
        outcome: testBankAccounts[account] === "succeeds" ? "succeeds" : (testBankAccounts[account] ?? "refused"),
        createdAt: now,
      })
      .returning();
    return toMandate(row!);
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
      if (input.paymentMethod === "bacs_debit") {
        await db.update(offlinePayments).set({ paymentMethod: "bacs_debit" }).where(eq(offlinePayments.id, first.id));
      }
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
          paymentMethod: input.paymentMethod,
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
      if (change.afterNextPayment) {
        // Kept until the next collection, already notified, is taken (chargeDueSubscriptions).
        const [row] = await db
          .update(offlineSubscriptions)
          .set({
            pendingChange: sql`coalesce(${offlineSubscriptions.pendingChange}, '{}'::jsonb) || ${JSON.stringify({
              ...(set.amountPence !== undefined && { amountPence: set.amountPence }),
              ...(set.dayOfMonth !== undefined && { dayOfMonth: set.dayOfMonth }),
              ...(set.nextChargeAt !== undefined && { nextChargeAt: set.nextChargeAt.toISOString() }),
            })}::jsonb`,
          })
          .where(and(eq(offlineSubscriptions.id, id), sql`${offlineSubscriptions.status} <> 'canceled'`))
          .returning({ id: offlineSubscriptions.id });
        if (!row) throw new PaymentNotFoundError("No such running subscription.");
        return;
      }
      const [row] = await db
        .update(offlineSubscriptions)
        .set({ ...set, pendingChange: null })
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
            const bank = sub.paymentMethod === "bacs_debit";
            // A Direct Debit is collected from its mandate: processing until the bank settles it,
            // refused at once if the mandate is no longer active.
            const [mandate] = bank
              ? await tx
                  .select()
                  .from(offlineMandates)
                  .where(eq(offlineMandates.id, sub.mandateId ?? ""))
              : [];
            const collectable = !bank || (mandate !== undefined && mandate.status !== "inactive");
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
                ...(bank
                  ? {
                      status: collectable ? "processing" : "requires_payment_method",
                      lastError: collectable ? null : bankFailures.refused,
                      paymentMethod: "bacs_debit",
                      mandateId: sub.mandateId,
                      // Collected on the month's day, as Stripe would have, whenever this run took it.
                      settlesAt: collectable ? addWorkingDays(sub.nextChargeAt, bacsWorkingDays.existingMandate) : null,
                    }
                  : { status: "succeeded", cardBrand: sub.cardBrand, cardLast4: sub.cardLast4, succeededAt: now }),
                // The bill is made on the month's day, whenever it is taken.
                createdAt: sub.nextChargeAt,
              })
              .onConflictDoNothing({ target: offlinePayments.id })
              .returning();
            // A change the donor made inside the notice period applies from now on.
            const pending = sub.pendingChange;
            const dayOfMonth = pending?.dayOfMonth ?? sub.dayOfMonth;
            await tx
              .update(offlineSubscriptions)
              .set({
                status: collectable ? "active" : "past_due",
                amountPence: pending?.amountPence ?? sub.amountPence,
                dayOfMonth,
                nextChargeAt: pending?.nextChargeAt
                  ? new Date(pending.nextChargeAt)
                  : monthlyPaymentDate(monthAfter(month), dayOfMonth),
                pendingChange: null,
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
    async bacsOffered() {
      return true;
    },
    bacsNoticesBySite: true,
    async retrieveMandate(id: string) {
      const [row] = await db.select().from(offlineMandates).where(eq(offlineMandates.id, id));
      if (!row) throw new PaymentNotFoundError("No such mandate.");
      return toMandate(row);
    },
    async subscriptionMandate(subscriptionId: string) {
      const [row] = await db
        .select({ mandate: offlineMandates })
        .from(offlineSubscriptions)
        .innerJoin(offlineMandates, eq(offlineMandates.id, offlineSubscriptions.mandateId))
        .where(eq(offlineSubscriptions.id, subscriptionId));
      return row ? toMandate(row.mandate) : null;
    },
    async startBankChange(): Promise<never> {
      throw new Error("The offline test provider takes new bank details by its own form (changeSubscriptionBank).");
    },
    async finishBankChange(): Promise<never> {
      throw new Error("The offline test provider takes new bank details by its own form (changeSubscriptionBank).");
    },
    async confirmBank(clientSecret: string, details: BankDetails) {
      const row = await find(eq(offlinePayments.clientSecret, clientSecret));
      if (row.paymentMethod !== "bacs_debit" || row.status !== "requires_payment_method")
        return { payment: toPayment(row) };
      const errors = testBankProblems(details);
      if (Object.keys(errors).length > 0) return { payment: toPayment(row), errors };
      const subscriptionId = row.metadata.subscription_id ?? "";
      const [sub] = await db.select().from(offlineSubscriptions).where(eq(offlineSubscriptions.id, subscriptionId));
      if (!sub) throw new PaymentNotFoundError("No such subscription.");
      const now = clock.now();
      const mandate = await newMandate(sub.customerId, details, now);
      const [updated] = await db
        .update(offlinePayments)
        .set({
          status: "processing",
          mandateId: mandate.id,
          // A new mandate: the bank sets it up before the first collection.
          settlesAt: addWorkingDays(now, bacsWorkingDays.newMandate),
        })
        .where(and(eq(offlinePayments.id, row.id), eq(offlinePayments.status, "requires_payment_method")))
        .returning();
      await db.update(offlineSubscriptions).set({ mandateId: mandate.id }).where(eq(offlineSubscriptions.id, sub.id));
      return { payment: toPayment(updated ?? row), mandate };
    },
    async changeSubscriptionBank(id: string, details: BankDetails) {
      const errors = testBankProblems(details);
      if (Object.keys(errors).length > 0) return { errors };
      const [sub] = await db
        .select()
        .from(offlineSubscriptions)
        .where(and(eq(offlineSubscriptions.id, id), sql`${offlineSubscriptions.status} <> 'canceled'`));
      if (!sub) throw new PaymentNotFoundError("No such running subscription.");
      const mandate = await newMandate(sub.customerId, details, clock.now());
      await db.update(offlineSubscriptions).set({ mandateId: mandate.id }).where(eq(offlineSubscriptions.id, id));
      return { mandate };
    },
    async settleBankPayments() {
      const now = clock.now();
      const due = await db
        .select({ id: offlinePayments.id })
        .from(offlinePayments)
        .where(and(eq(offlinePayments.status, "processing"), lte(offlinePayments.settlesAt, now)));
      const paid: SubscriptionInvoice[] = [];
      const failed: SubscriptionInvoice[] = [];
      const mandates: string[] = [];
      for (const { id } of due) {
        await db.transaction(async (tx) => {
          const [payment] = await tx.select().from(offlinePayments).where(eq(offlinePayments.id, id)).for("update");
          if (payment?.status !== "processing") return;
          const [mandate] = await tx
            .select()
            .from(offlineMandates)
            .where(eq(offlineMandates.id, payment.mandateId ?? ""))
            .for("update");
          const outcome = mandate?.status === "inactive" ? "refused" : (mandate?.outcome ?? "refused");
          const subscriptionId = payment.metadata.subscription_id ?? "";
          if (outcome === "succeeds") {
            const [settled] = await tx
              .update(offlinePayments)
              .set({ status: "succeeded", succeededAt: payment.settlesAt ?? now })
              .where(eq(offlinePayments.id, id))
              .returning();
            if (mandate?.status === "pending") {
              await tx.update(offlineMandates).set({ status: "active" }).where(eq(offlineMandates.id, mandate.id));
              mandates.push(mandate.id);
            }
            await tx
              .update(offlineSubscriptions)
              .set({ status: "active" })
              .where(
                and(
                  eq(offlineSubscriptions.id, subscriptionId),
                  inArray(offlineSubscriptions.status, ["incomplete", "past_due"]),
                ),
              );
            paid.push(toInvoice(settled!));
            return;
          }
          const [unpaid] = await tx
            .update(offlinePayments)
            .set({
              status: "requires_payment_method",
              lastError: outcome === "fails" ? bankFailures.fails : bankFailures.refused,
            })
            .where(eq(offlinePayments.id, id))
            .returning();
          if (mandate && outcome === "refused" && mandate.status !== "inactive") {
            await tx.update(offlineMandates).set({ status: "inactive" }).where(eq(offlineMandates.id, mandate.id));
            mandates.push(mandate.id);
          } else if (mandate?.status === "pending") {
            await tx.update(offlineMandates).set({ status: "active" }).where(eq(offlineMandates.id, mandate.id));
            mandates.push(mandate.id);
          }
          await tx
            .update(offlineSubscriptions)
            .set({ status: "past_due" })
            .where(
              and(
                eq(offlineSubscriptions.id, subscriptionId),
                inArray(offlineSubscriptions.status, ["incomplete", "active"]),
              ),
            );
          failed.push(toInvoice(unpaid!));
        });
      }
      return { paid, failed, mandates };
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
