import type { Route } from "./+types/api.payments.webhook";
import { apiRoute, onlyAllows } from "~/infra/http/api.server";

// POST /api/payments/webhook: the payment provider's notifications, checked and settled in server/payments.ts.
export const loader = onlyAllows("POST");

export const action = ({ request, context }: Route.ActionArgs) =>
  apiRoute("A payment webhook", () => context.services.paymentWebhook(request));
