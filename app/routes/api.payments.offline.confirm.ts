import { z } from "zod";
import type { Route } from "./+types/api.payments.offline.confirm";
import type { OfflineProvider } from "~/infra/payments/offline.server";
import type { PaymentProvider } from "~/infra/payments/provider.server";
import { readJsonBody } from "~/lib/json-body.server";
import { settlePayment } from "~/payments.server";

const cardSchema = z.object({
  clientSecret: z.string().max(200),
  card: z.object({ number: z.string().max(40), expiry: z.string().max(10), cvc: z.string().max(10) }),
});

// POST /api/payments/offline/confirm: the offline test provider's card form. Like Stripe it
// answers the card's outcome, and on success it settles the booking or donation at once, as Stripe's webhook would.
export async function action({ request, context }: Route.ActionArgs) {
  const payments = context.services.payments as Partial<OfflineProvider> & PaymentProvider;
  if (payments.name !== "offline" || !payments.confirmCard) {
    return Response.json({ error: "Card payments here go through Stripe." }, { status: 404 });
  }
  const body = await readJsonBody(request);
  if (!body.ok) return body.response;
  const parsed = cardSchema.safeParse(body.value);
  if (!parsed.success) return Response.json({ error: "Send the card details." }, { status: 400 });
  let result;
  try {
    result = await payments.confirmCard(parsed.data.clientSecret, parsed.data.card);
  } catch {
    return Response.json({ error: "This payment could not be found." }, { status: 404 });
  }
  if (result.error) return Response.json({ status: result.payment.status, error: result.error }, { status: 402 });
  if (result.payment.status === "succeeded") {
    await settlePayment(await context.services.paymentDeps(), result.payment.id).catch((error) => {
      // The return page settles it again; nothing is lost.
      console.error("Settling after an offline payment failed:", (error as Error).message);
    });
  }
  return Response.json({ status: result.payment.status });
}
