import type { Route } from "./+types/api.payments.webhook";
import { paymentWebhook } from "~/payments.server";

// POST /api/payments/webhook: the payment provider's notifications (Stripe-Signature checked).
export async function action({ request, context }: Route.ActionArgs) {
  return paymentWebhook(await context.services.paymentDeps(), request);
}
