import { eq } from "drizzle-orm";
import { AppError } from "~/lib/errors";
import { processedWebhookEvents } from "~db/schema";
import type { Queryable } from "../db/database.server";
import { readTextBody } from "../http/api.server";
import { bodyLimits } from "../http/body-limits.server";
import { WebhookSignatureError, type PaymentProvider, type WebhookEvent } from "./provider.server";

// What a provider's webhook delivery is, before anything is done about it: an event whose
// signature was checked, and the record of the events already handled, each handled once.

/** The delivery's event once its signature is checked; an AppError ("invalid", 400) when it does not verify. */
export async function readWebhookEvent(payments: PaymentProvider, request: Request): Promise<WebhookEvent> {
  const rawBody = await readTextBody(request, bodyLimits.webhook);
  try {
    return await payments.parseWebhook(rawBody, request.headers.get("Stripe-Signature"));
  } catch (error) {
    if (error instanceof WebhookSignatureError) throw new AppError("invalid", "Bad signature.");
    throw error;
  }
}

/** Whether this event was handled already (a delivery the provider made again). */
export async function webhookEventSeen(db: Queryable, eventId: string): Promise<boolean> {
  const [seen] = await db
    .select({ eventId: processedWebhookEvents.eventId })
    .from(processedWebhookEvents)
    .where(eq(processedWebhookEvents.eventId, eventId));
  return seen !== undefined;
}

/** Records an event as handled: after its work, so a failure in it makes the provider deliver it again. */
export async function recordWebhookEvent(db: Queryable, event: WebhookEvent, at: Date): Promise<void> {
  await db
    .insert(processedWebhookEvents)
    .values({ eventId: event.id, type: event.type, receivedAt: at })
    .onConflictDoNothing();
}
