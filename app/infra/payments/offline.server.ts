import crypto from "node:crypto";
import { and, asc, eq, inArray, lte, or, sql, sum } from "drizzle-orm";
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
import { cardDigits, cardProblem, savedCardDecline, testCards, type CardDetails } from "~/lib/test-cards";

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
   * subscription keeps, and tries again the bills of failed months whose retry has come
   * (`offlineRetryDays`, decision 093). Answers the invoices it paid; the site records them
   * (app/payments/regular-gifts.server.ts), as it would on Stripe's `invoice.paid`.
   */
  chargeDueSubscriptions(): Promise<SubscriptionInvoice[]>;
  /**
   * A new test card for a subscription's later payments: checked as the card form checks it (decision
   * 090); any bill a failed month left open is tried on it at once (decision 093).
   */
  changeSubscriptionCard(id: string, card: CardDetails): Promise<{ card: PaymentCard } | { error: string }>;
  /** A subscription's bills whose payment failed and that are still open, oldest first (Stripe's open invoices). */
  listOpenInvoices(subscriptionId: string): Promise<SubscriptionInvoice[]>;
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

/**
 * A failed month's bill is tried again this many days after its first attempt; when the last of
 * these fails too, the subscription is cancelled, as Stripe's default "cancel the subscription"
 * after its retries (decision 093).
 */
export const offlineRetryDays = [3, 5];
const dayMs = 24 * 60 * 60_000;

/** A bill (a monthly payment, never the first) whose charge failed and that nobody has paid or voided. */
const openBill = () =>
  and(eq(offlinePayments.status, "requires_payment_method"), sql`${offlinePayments.metadata}->>'attempts' is not null`);

/** A failed bill's attempts so far, as its metadata keeps them, with the next retry if one is left. */
function failedAttempts(attempts: number, firstAt: Date): Record<string, string> {
  const delay = offlineRetryDays[attempts - 1];
  return {
    attempts: String(attempts),
    first_attempt_at: firstAt.toISOString(),
    ...(delay !== undefined && { next_attempt_at: new Date(firstAt.getTime() + delay * dayMs).toISOString() }),
  };
}

const withoutRetry = ({ next_attempt_at: _, ...metadata }: Record<string, string>) => metadata;

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
  /** Stripe's subscription status while it runs: past_due while a bill is open, else active. */
  async function runningStatus(tx: Pick<Database, "select">, subscriptionId: string) {
    const open = await tx
      .select({ id: offlinePayments.id })
      .from(offlinePayments)
      .where(and(openBill(), sql`${offlinePayments.metadata}->>'subscription_id' = ${subscriptionId}`))
      .limit(1);
    return open.length > 0 ? "past_due" : "active";
  }
  /**
   * Tries an open bill again on the subscription's card: on its schedule (a failure counts, and the
   * last one cancels the subscription), or at once after a card change (a failure changes nothing).
   */
  async function retryBill(paymentId: string, scheduled: boolean) {
    const now = clock.now();
    return db.transaction(async (tx) => {
      const [bill] = await tx.select().from(offlinePayments).where(eq(offlinePayments.id, paymentId));
      const subscriptionId = bill?.metadata.subscription_id;
      if (!subscriptionId) return undefined;
      // The subscription first, as the monthly run locks it, then the bill.
      const [sub] = await tx
        .select()
        .from(offlineSubscriptions)
        .where(eq(offlineSubscriptions.id, subscriptionId))
        .for("update");
      const [locked] = await tx.select().from(offlinePayments).where(eq(offlinePayments.id, paymentId)).for("update");
      if (!sub || sub.status === "canceled" || !locked || locked.status !== "requires_payment_method") return undefined;
      const due = locked.metadata.next_attempt_at;
      if (scheduled && (!due || Date.parse(due) > now.getTime())) return undefined;
      const declined = savedCardDecline(sub.cardLast4);
      if (!declined) {
        const [paid] = await tx
          .update(offlinePayments)
          .set({
            status: "succeeded",
            lastError: null,
            cardBrand: sub.cardBrand,
            cardLast4: sub.cardLast4,
            succeededAt: now,
            metadata: withoutRetry(locked.metadata),
          })
          .where(eq(offlinePayments.id, paymentId))
          .returning();
        await tx
          .update(offlineSubscriptions)
          .set({ status: await runningStatus(tx, sub.id) })
          .where(eq(offlineSubscriptions.id, sub.id));
        return toInvoice(paid!);
      }
      if (!scheduled) {
        await tx.update(offlinePayments).set({ lastError: declined }).where(eq(offlinePayments.id, paymentId));
        return toInvoice(locked);
      }
      const attempts = failedAttempts(
        Number(locked.metadata.attempts ?? "1") + 1,
        new Date(locked.metadata.first_attempt_at ?? locked.createdAt),
      );
      await tx
        .update(offlinePayments)
        .set({ lastError: declined, metadata: { ...withoutRetry(locked.metadata), ...attempts } })
        .where(eq(offlinePayments.id, paymentId));
      if (!attempts.next_attempt_at) {
        // Every retry failed: the subscription is cancelled and its open bills voided.
        await tx
          .update(offlineSubscriptions)
          .set({ status: "canceled", canceledAt: now })
          .where(eq(offlineSubscriptions.id, sub.id));
        await tx
          .update(offlinePayments)
          .set({ status: "canceled" })
          .where(and(openBill(), sql`${offlinePayments.metadata}->>'subscription_id' = ${sub.id}`));
      }
      return undefined;
    });
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
      // As Stripe voids an incomplete subscription's open first invoice: no card can pay it now. A
      // failed month's open bill is voided too, and never tried again.
      if (cancelled) {
        await db
          .update(offlinePayments)
          .set({ status: "canceled" })
          .where(
            or(
              and(
                eq(offlinePayments.id, cancelled.firstPaymentId),
                eq(offlinePayments.status, "requires_payment_method"),
              ),
              and(openBill(), sql`${offlinePayments.metadata}->>'subscription_id' = ${id}`),
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
      // A card that attaches (4000 0000 0000 0341) is saved, as Stripe's SetupIntent saves it.
      if (result.outcome === "declined" && !result.attaches) return { error: result.message };
      const digits = cardDigits(card.number);
      const saved = { brand: cardBrandOf(digits), last4: digits.slice(-4) };
      const [row] = await db
        .update(offlineSubscriptions)
        .set({ cardBrand: saved.brand, cardLast4: saved.last4 })
        .where(and(eq(offlineSubscriptions.id, id), sql`${offlineSubscriptions.status} <> 'canceled'`))
        .returning({ id: offlineSubscriptions.id });
      if (!row) throw new PaymentNotFoundError("No such running subscription.");
      // Sooner than Stripe's retries would: a bill a failed month left open is tried on the new card now.
      for (const bill of await provider.listOpenInvoices(id)) await retryBill(bill.id, false);
      return { card: saved };
    },
    async listOpenInvoices(subscriptionId: string) {
      const rows = await db
        .select()
        .from(offlinePayments)
        .where(and(openBill(), sql`${offlinePayments.metadata}->>'subscription_id' = ${subscriptionId}`))
        .orderBy(asc(offlinePayments.createdAt));
      return rows.map(toInvoice);
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
            // A saved card that attaches but is never paid by (4000 0000 0000 0341) fails the month.
            const bank = sub.paymentMethod === "bacs_debit";
            const declined = bank ? undefined : savedCardDecline(sub.cardLast4);
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
                metadata: { ...sub.metadata, subscription_id: sub.id, ...(declined && failedAttempts(1, now)) },
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
                  : {
                      status: declined ? "requires_payment_method" : "succeeded",
                      lastError: declined ?? null,
                      cardBrand: sub.cardBrand,
                      cardLast4: sub.cardLast4,
                      succeededAt: declined ? null : now,
                    }),
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
                // A card's month that failed leaves its bill open (decision 093); a Direct Debit is
                // past due when its mandate can no longer be collected from (decision 092).
                status: bank ? (collectable ? "active" : "past_due") : await runningStatus(tx, sub.id),
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
      // Failed months' bills whose retry has come (offlineRetryDays).
      const retries = await db
        .select({ id: offlinePayments.id })
        .from(offlinePayments)
        .where(and(openBill(), sql`${offlinePayments.metadata}->>'next_attempt_at' <= ${now.toISOString()}`));
      for (const { id } of retries) {
        const invoice = await retryBill(id, true);
        if (invoice?.status === "paid") paid.push(invoice);
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
