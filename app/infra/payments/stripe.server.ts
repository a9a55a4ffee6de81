import Stripe from "stripe";
import { isPaymentCard, type PaymentCard } from "~/lib/payment-card";
import type { NewPayment, Payment, PaymentProvider, WebhookEvent } from "./provider.server";
import { WebhookSignatureError } from "./provider.server";

export interface StripeSettings {
  secretKey: string;
  publishableKey: string;
  webhookSecret: string;
  /** Another address for Stripe's API (tests point it at a local stand-in). */
  apiUrl?: string;
}

function toPayment(intent: Stripe.PaymentIntent): Payment {
  return {
    id: intent.id,
    clientSecret: intent.client_secret ?? "",
    status: intent.status,
    amountPence: intent.amount,
    currency: intent.currency,
    metadata: { ...intent.metadata },
    card: cardOf(intent),
    succeededAt: succeededAtOf(intent),
  };
}

/**
 * When the money was taken: the latest charge's `created` (seconds), when the intent succeeded and
 * was read with its charge expanded. A charge is created when the card is confirmed, after any 3-D
 * Secure step, so this is the moment the buyer paid, however late we hear of it.
 */
function succeededAtOf(intent: Stripe.PaymentIntent): Date | null {
  const charge = intent.latest_charge;
  if (intent.status !== "succeeded" || !charge || typeof charge === "string") return null;
  return typeof charge.created === "number" ? new Date(charge.created * 1000) : null;
}

/** The card's brand and last four digits, from the intent's latest charge when it was read expanded. */
function cardOf(intent: Stripe.PaymentIntent): PaymentCard | null {
  const charge = intent.latest_charge;
  if (!charge || typeof charge === "string") return null;
  const card = charge.payment_method_details?.card;
  return isPaymentCard(card) ? { brand: card.brand, last4: card.last4 } : null;
}

/** Stripe's PaymentIntents, created and checked only on the server with the secret key. */
export function stripeProvider(settings: StripeSettings): PaymentProvider {
  const api = settings.apiUrl ? new URL(settings.apiUrl) : undefined;
  const stripe = new Stripe(settings.secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    ...(api && {
      host: api.hostname,
      port: Number(api.port || (api.protocol === "https:" ? 443 : 80)),
      protocol: api.protocol.replace(":", "") as "http" | "https",
    }),
  });
  return {
    name: "stripe",
    publishableKey: settings.publishableKey,
    async createPayment(input: NewPayment) {
      const intent = await stripe.paymentIntents.create(
        {
          amount: input.amountPence,
          currency: "gbp",
          automatic_payment_methods: { enabled: true },
          description: input.description,
          metadata: input.metadata,
          ...(input.receiptEmail && { receipt_email: input.receiptEmail }),
        },
        { idempotencyKey: input.idempotencyKey },
      );
      return toPayment(intent);
    },
    async retrievePayment(id: string) {
      // The latest charge carries the card (brand, last four digits) the receipt names.
      return toPayment(await stripe.paymentIntents.retrieve(id, { expand: ["latest_charge"] }));
    },
    async cancelPayment(id: string) {
      try {
        await stripe.paymentIntents.cancel(id);
      } catch (error) {
        // Already paid, processing or cancelled: nothing to cancel.
        if (!(error instanceof Stripe.errors.StripeInvalidRequestError)) throw error;
      }
    },
    async refundPayment(id: string, idempotencyKey: string, amountPence?: number) {
      const refund = await stripe.refunds.create(
        { payment_intent: id, ...(amountPence !== undefined && { amount: amountPence }) },
        { idempotencyKey },
      );
      return { id: refund.id, amountPence: refund.amount };
    },
    async parseWebhook(rawBody: string, signature: string | null): Promise<WebhookEvent> {
      if (!signature) throw new WebhookSignatureError("No Stripe-Signature header.");
      let event: Stripe.Event;
      try {
        event = await stripe.webhooks.constructEventAsync(rawBody, signature, settings.webhookSecret);
      } catch (error) {
        throw new WebhookSignatureError((error as Error).message);
      }
      const object = event.data.object as { object?: string; id?: string };
      return { id: event.id, type: event.type, paymentId: object.object === "payment_intent" ? object.id : undefined };
    },
  };
}
