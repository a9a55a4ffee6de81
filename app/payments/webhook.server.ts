import { readWebhookEvent, recordWebhookEvent, webhookEventSeen } from "~/infra/payments/webhook.server";
import {
  followSubscription,
  giftPaymentFailed,
  recordGiftInvoice,
  type GiftDeps,
} from "~/features/donations/regular-gifts.server";
import { followMandate } from "~/features/donations/direct-debit.server";
import { paymentFailed, settlePayment } from "./settle.server";

/** What the webhook answers the provider: received (again, for an event already handled). */
export type WebhookReceipt = { received: true; duplicate?: true };

/**
 * POST /api/payments/webhook, the provider's notifications for bookings and donations alike: the
 * signature is checked, each event is handled once (recorded by id once its work is done), and a
 * succeeded or failed payment is settled or given back from the payment as the provider reports it
 * when asked again, never from the payload. Event types we do not handle are received, so the
 * provider stops sending them.
 */
export async function paymentWebhook(deps: GiftDeps, request: Request): Promise<WebhookReceipt> {
  const event = await readWebhookEvent(deps.payments, request);
  if (await webhookEventSeen(deps.db, event.id)) return { received: true, duplicate: true };
  if (event.paymentId) {
    if (event.type === "payment_intent.succeeded") await settlePayment(deps, event.paymentId);
    if (event.type === "payment_intent.payment_failed" || event.type === "payment_intent.canceled") {
      await paymentFailed(deps, event.paymentId);
    }
  }
  // A regular gift's months and state (decision 089): re-read from the provider, never the payload.
  if (event.invoiceId) {
    if (event.type === "invoice.paid") await recordGiftInvoice(deps, event.invoiceId);
    if (event.type === "invoice.payment_failed") await giftPaymentFailed(deps, event.invoiceId);
  }
  if (
    event.subscriptionId &&
    (event.type === "customer.subscription.updated" || event.type === "customer.subscription.deleted")
  ) {
    await followSubscription(deps, event.subscriptionId);
  }
  // A Direct Debit's mandate set up, refused or cancelled at the bank (decision 092): re-read from the provider.
  if (event.mandateId && event.type === "mandate.updated") await followMandate(deps, event.mandateId);
  await recordWebhookEvent(deps.db, event, deps.clock.now());
  return { received: true };
}
