import type { Route } from "./+types/api.payments.webhook";
import { handlePaymentWebhook } from "~/features/booking/webhook.server";

// POST /api/payments/webhook: the payment provider's notifications (Stripe-Signature checked).
export async function action({ request, context }: Route.ActionArgs) {
  return handlePaymentWebhook(await context.services.bookingDeps(), request);
}
