import type { Clock } from "~/lib/clock";
import { AppError } from "~/lib/errors";
import type { PaymentCard } from "~/lib/payment-card";
import type { Site } from "~/lib/site";
import type { Database } from "../db/database.server";

/** A card payment as our code sees it, whichever provider took it. Amounts are in pence. */
export interface Payment {
  id: string;
  clientSecret: string;
  /** Stripe's PaymentIntent statuses: requires_payment_method, processing, succeeded, canceled, ... */
  status: string;
  amountPence: number;
  currency: string;
  metadata: Record<string, string>;
  /** The card it was paid with, once it succeeded, where the provider says (for the receipt). */
  card: PaymentCard | null;
  /**
   * When the provider says the money was taken (Stripe: the latest charge's `created`; the offline
   * provider: when it recorded the card's confirmation); null before that, or where it does not say.
   * Read from the provider, never from the browser: settling judges the hold by it (decision 028).
   */
  succeededAt: Date | null;
}

export interface NewPayment {
  amountPence: number;
  description: string;
  metadata: Record<string, string>;
  receiptEmail?: string;
  /** The same key gives the same payment, however often the request is retried. */
  idempotencyKey: string;
}

/** Money given back on a payment, as the provider recorded it. */
export interface Refund {
  id: string;
  amountPence: number;
}

/** A webhook delivery after its signature was checked. */
export interface WebhookEvent {
  id: string;
  type: string;
  /** The payment it is about, for payment_intent.* events. */
  paymentId?: string;
  /** The invoice it is about, for invoice.* events (a regular gift's month). */
  invoiceId?: string;
  /** The subscription it is about, for customer.subscription.* events (a regular gift). */
  subscriptionId?: string;
  /** The mandate it is about, for mandate.* events (a Direct Debit gift, decision 092). */
  mandateId?: string;
}

/** How a regular gift is paid: by card, or by Bacs Direct Debit (decision 092). */
export type GiftPaymentMethod = "card" | "bacs_debit";

/**
 * A Bacs Direct Debit mandate as the provider reports it: what the scheme's notices need, and never
 * the whole account number (the provider keeps that; we are told its last four digits).
 */
export interface Mandate {
  id: string;
  /** The provider's customer whose payment method it is (a gift's `provider_customer_id`). */
  customerId: string;
  /** The mandate reference the donor's bank shows. */
  reference: string;
  /** Stripe's mandate statuses: pending (the bank is setting it up), active, inactive (refused or cancelled). */
  status: "pending" | "active" | "inactive";
  accountName: string;
  /** Six digits. */
  sortCode: string;
  last4: string;
}

/** What a regular gift asks of the provider: a monthly subscription, its first payment made now. */
export interface NewSubscription {
  amountPence: number;
  /** The day of the month (1 to 28) later payments are taken. */
  dayOfMonth: number;
  name: string;
  email: string;
  description: string;
  metadata: Record<string, string>;
  /** The same key gives the same subscription, however often the request is retried. */
  idempotencyKey: string;
  /** When the second payment is taken (the donor's day of next month); monthly from then on. */
  secondPaymentAt: Date;
  /** How the first and later payments are made: a card, or Bacs Direct Debit (decision 092). */
  paymentMethod: GiftPaymentMethod;
}

/** A regular gift as the provider keeps it (Stripe: a subscription). */
export interface Subscription {
  id: string;
  customerId: string;
  /** Stripe's subscription statuses: incomplete, incomplete_expired, active, past_due, unpaid, canceled, paused. */
  status: string;
  metadata: Record<string, string>;
  /** While collection is paused (Stripe's `pause_collection`): when it starts again. */
  pausedUntil?: Date | null;
  /** What each month takes now (Stripe: the item's price), where the provider says. */
  amountPence?: number;
}

/**
 * A change the donor makes to their gift (decision 090). The amount is taken from the next payment;
 * `nextPaymentAt` moves the schedule (a new day of the month: monthly from then on); `pause` takes
 * no payment before `resumesAt`, and null ends a pause now.
 */
export interface SubscriptionChange {
  amountPence?: number;
  dayOfMonth?: number;
  nextPaymentAt?: Date;
  pause?: { resumesAt: Date } | null;
  /**
   * A Direct Debit change inside the advance notice period (decision 092): the next collection,
   * already notified, is taken as it stands, and the change applies from the one after.
   */
  afterNextPayment?: boolean;
}

/** One month's bill of a regular gift (Stripe: an invoice), and whether it was paid. */
export interface SubscriptionInvoice {
  id: string;
  subscriptionId: string;
  /** Stripe's invoice statuses: draft, open, paid, void, uncollectible. */
  status: string;
  amountPence: number;
  currency: string;
  /** When the bill was made: the month it pays for is this moment's London month (app/lib/billing-month.ts). */
  createdAt: Date;
  /** When the provider says it was paid; null while it is not. */
  paidAt: Date | null;
  card: PaymentCard | null;
  /** The card payment that pays it, where there is one (the first one's is confirmed in the browser). */
  paymentId: string | null;
  /** The client secret the browser confirms it with, while it is open; the proof of a donor's own attempt. */
  clientSecret: string | null;
}

/** A subscription just made: its first invoice, and the client secret the browser confirms it with. */
export interface StartedSubscription {
  subscription: Subscription;
  firstInvoice: SubscriptionInvoice;
  clientSecret: string;
}

export class WebhookSignatureError extends Error {
  override name = "WebhookSignatureError";
}

/** The card payment provider: Stripe in production, the offline test provider by default. */
export interface PaymentProvider {
  name: "stripe" | "offline";
  /** For the browser: Stripe's publishable key (never the secret one). */
  publishableKey?: string;
  createPayment(input: NewPayment): Promise<Payment>;
  retrievePayment(id: string): Promise<Payment>;
  cancelPayment(id: string): Promise<void>;
  /**
   * Gives back `amountPence` of a succeeded payment (all that is left of it when omitted). The same
   * idempotency key gives the same refund, however often it is asked for (a retry after a crash).
   */
  refundPayment(id: string, idempotencyKey: string, amountPence?: number): Promise<Refund>;
  /** Checks the signature and reads the event; throws WebhookSignatureError when it does not verify. */
  parseWebhook(rawBody: string, signature: string | null): Promise<WebhookEvent>;
  /** Starts a monthly subscription whose first invoice is paid now, by the card the browser confirms. */
  createSubscription(input: NewSubscription): Promise<StartedSubscription>;
  retrieveSubscription(id: string): Promise<Subscription>;
  retrieveInvoice(id: string): Promise<SubscriptionInvoice>;
  /** Every invoice of the subscription the provider says is paid, oldest first. */
  listPaidInvoices(subscriptionId: string): Promise<SubscriptionInvoice[]>;
  /** Ends the subscription at once: no further payment is taken. Cancelling a cancelled one does nothing. */
  cancelSubscription(id: string): Promise<void>;
  /** Changes what later payments take and when (decision 090). */
  changeSubscription(id: string, change: SubscriptionChange): Promise<void>;
  /**
   * A new card for the subscription's later payments (Stripe: a SetupIntent for its customer, which
   * the browser confirms with the Payment Element); `finishCardChange` then makes the confirmed card
   * the subscription's own, once the provider says it is confirmed.
   */
  startCardChange(subscriptionId: string): Promise<{ setupId: string; clientSecret: string }>;
  finishCardChange(subscriptionId: string, setupId: string): Promise<{ card: PaymentCard | null } | { error: string }>;
  /**
   * Whether monthly gifts may be paid by Bacs Direct Debit here (Stripe: the account's
   * `bacs_debit_payments` capability is active; read once in a while, and no when Stripe cannot be asked).
   */
  bacsOffered(): Promise<boolean>;
  /**
   * Whether the site sends the Bacs scheme's notices (the mandate's confirmation, advance notices)
   * itself: always on the offline provider; on Stripe only when the charity has its own notices
   * approved and Stripe's turned off (STRIPE_BACS_OWN_NOTICES).
   */
  bacsNoticesBySite: boolean;
  retrieveMandate(id: string): Promise<Mandate>;
  /** The mandate the subscription's first payment was collected from, once the bank details are in; else null. */
  subscriptionMandate(subscriptionId: string): Promise<Mandate | null>;
  /**
   * New bank details for a Direct Debit gift (Stripe: a Checkout Session in setup mode, which the
   * donor is sent to and which returns to `returnUrl` with `{CHECKOUT_SESSION_ID}` filled in);
   * `finishBankChange` then makes the new mandate's payment method the subscription's own, once the
   * provider says it is set up.
   */
  startBankChange(subscriptionId: string, returnUrl: string): Promise<{ url: string }>;
  finishBankChange(subscriptionId: string, sessionId: string): Promise<{ mandate: Mandate } | { error: string }>;
}

/**
 * The provider could not be asked (down, slow, refusing our request): logged in full for us, and
 * for the visitor an AppError that says only what they can do about it.
 */
export function providerUnavailable(error: unknown, what: string): AppError {
  console.error(`The payment provider failed while ${what}:`, error);
  return new AppError(
    "provider-unavailable",
    "We could not reach the card payment service just now, so nothing has been charged. Please try again in a moment.",
    { cause: error },
  );
}

/** The charity's details that receipts carry. */
export interface Charity {
  name: string;
  registrationNumber: string;
  email: string;
  /** The charity's telephone number, where the content gives one (the Direct Debit notices carry it). */
  telephone?: string | undefined;
  /** The site's public address, for links in e-mails (the receipt's QR code opens the door page there). */
  website: string;
  /** Its postal address, if the content gives one. */
  address?: string | undefined;
  /** The receipts' refund policies and what a gift does, as the charity wrote them. */
  receipts: Site["receipts"];
}

/** The charity's details for receipts, from the `site` content and the site's public address. */
export function charityOf(site: Site, website: string): Charity {
  return {
    name: site.charityName,
    registrationNumber: site.registrationNumber,
    email: site.email,
    telephone: site.telephone,
    website,
    address: site.address,
    receipts: site.receipts,
  };
}

/** What taking a card payment needs, for a booking or a donation. */
export interface PaymentDeps {
  db: Database;
  payments: PaymentProvider;
  charity: Charity;
  /** The site's one clock: holds, payments and receipts are timed by it. */
  clock: Clock;
}
