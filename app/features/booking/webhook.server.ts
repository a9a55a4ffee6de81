import { processedWebhookEvents } from "../../../db/schema";
import { WebhookSignatureError } from "~/infra/payments/provider.server";
import { eq } from "drizzle-orm";
import { bookingRefForPayment, settleBooking, type BookingDeps } from "./booking.server";

/**
 * A webhook delivery: the signature is checked, each provider event is handled once (recorded by
 * id), and the payment's state is read again from the provider rather than from the payload.
 * Event types we do not handle get 200 so the provider stops retrying them.
 */
export async function handlePaymentWebhook(deps: BookingDeps, request: Request): Promise<Response> {
  if (request.method !== "POST") return Response.json({ error: "Method not allowed." }, { status: 405 });
  const rawBody = await request.text();
  let event;
  try {
    event = await deps.payments.parseWebhook(rawBody, request.headers.get("Stripe-Signature"));
  } catch (error) {
    if (error instanceof WebhookSignatureError) return Response.json({ error: "Bad signature." }, { status: 400 });
    throw error;
  }
  const [seen] = await deps.db
    .select()
    .from(processedWebhookEvents)
    .where(eq(processedWebhookEvents.eventId, event.id));
  if (seen) return Response.json({ received: true, duplicate: true });

  if (event.type === "payment_intent.succeeded" && event.paymentId) {
    const bookingRef = await bookingRefForPayment(deps.db, event.paymentId);
    // Not ours (e.g. a donation, handled elsewhere), or settled: either way nothing is lost.
    if (bookingRef) await settleBooking(deps, bookingRef);
  }
  // Recorded after the work, so a failure above makes the provider deliver it again.
  await deps.db.insert(processedWebhookEvents).values({ eventId: event.id, type: event.type }).onConflictDoNothing();
  return Response.json({ received: true });
}
