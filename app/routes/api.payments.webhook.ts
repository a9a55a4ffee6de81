import type { Route } from "./+types/api.payments.webhook";
import { allowMethods, apiRoute, onlyAllows } from "~/infra/http/api.server";
import { paymentWebhook } from "~/payments/webhook.server";

// POST /api/payments/webhook: the payment provider's notifications, checked and settled in app/payments.
export const loader = onlyAllows("POST");

export const action = ({ request, context }: Route.ActionArgs) =>
  apiRoute("A payment webhook", async () => {
    allowMethods(request, "POST");
    return Response.json(await paymentWebhook(context.services, request));
  });
