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
