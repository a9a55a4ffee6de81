import type { Route } from "./+types/api.payments.offline.confirm";
import { allowMethods, apiRoute, onlyAllows } from "~/infra/http/api.server";
import { confirmOfflineCard } from "~/payments/offline-card.server";

// POST /api/payments/offline/confirm {clientSecret, card}: the offline test provider's card form.
// Answers {status}; a declined card 402 with the provider's words (app/payments/offline-card.server.ts).
export const loader = onlyAllows("POST");

export const action = ({ request, context }: Route.ActionArgs) =>
  apiRoute("Confirming an offline card payment", async () => {
    allowMethods(request, "POST");
    return Response.json(await confirmOfflineCard(context.services, request));
  });
