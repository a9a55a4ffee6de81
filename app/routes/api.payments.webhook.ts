import type { Route } from "./+types/api.payments.webhook";

// POST /api/payments/webhook: the payment provider's notifications, checked and settled in server/payments.ts.
export const action = ({ request, context }: Route.ActionArgs) => context.services.paymentWebhook(request);
