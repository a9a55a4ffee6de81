import { eq } from "drizzle-orm";
import type { Clock } from "~/lib/clock";
import { processedWebhookEvents } from "../../../db/schema";
import type { Queryable } from "../db/database.server";
import { readTextBody } from "../http/api.server";
import { bodyLimits } from "../http/body-limits.server";
import { WebhookSignatureError, type PaymentProvider } from "./provider.server";

/** What a webhook's payment events lead to, each given the payment's id only. */
export interface PaymentEventHandlers {
  /** payment_intent.succeeded: settle what it paid for. */
  succeeded(paymentId: string): Promise<unknown>;
  /** payment_intent.payment_failed or .canceled: give back what it held. */
  failed(paymentId: string): Promise<unknown>;
}

/**
 * A webhook delivery: the signature is checked, each provider event is handled once (recorded by
 * id), and for a succeeded or failed payment its handler is called with the payment's id only: it
 * reads the payment's state again from the provider rather than trusting the payload.
 * Event types we do not handle get 200 so the provider stops retrying them.
 */
export async function handlePaymentWebhook(
  deps: { db: Queryable; payments: PaymentProvider; clock: Clock },
  request: Request,
  handlers: PaymentEventHandlers,
): Promise<Response> {
  if (request.method !== "POST") {
    return Response.json({ error: "Method not allowed.", code: "method-not-allowed" }, { status: 405 });
  }
  const rawBody = await readTextBody(request, bodyLimits.webhook);
  let event;
  try {
    event = await deps.payments.parseWebhook(rawBody, request.headers.get("Stripe-Signature"));
  } catch (error) {
    if (error instanceof WebhookSignatureError) {
      return Response.json({ error: "Bad signature.", code: "invalid" }, { status: 400 });
    }
    throw error;
  }
  const [seen] = await deps.db
    .select()
    .from(processedWebhookEvents)
    .where(eq(processedWebhookEvents.eventId, event.id));
  if (seen) return Response.json({ received: true, duplicate: true });

  if (event.paymentId) {
    if (event.type === "payment_intent.succeeded") await handlers.succeeded(event.paymentId);
    if (event.type === "payment_intent.payment_failed" || event.type === "payment_intent.canceled") {
      await handlers.failed(event.paymentId);
    }
  }
  // Recorded after the work, so a failure above makes the provider deliver it again.
  await deps.db
    .insert(processedWebhookEvents)
    .values({ eventId: event.id, type: event.type, receivedAt: deps.clock.now() })
    .onConflictDoNothing();
  return Response.json({ received: true });
}
