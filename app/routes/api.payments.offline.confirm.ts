import { z } from "zod";
import type { Route } from "./+types/api.payments.offline.confirm";
import { allowMethods, apiRoute, onlyAllows, readJsonBody } from "~/infra/http/api.server";
import type { OfflineProvider } from "~/infra/payments/offline.server";
import type { PaymentProvider } from "~/infra/payments/provider.server";
import { AppError } from "~/lib/errors";
import { attemptDeclinedTooOften, declineLimits, declinesOf } from "~/infra/payments/card-testing.server";

const cardSchema = z.object({
  clientSecret: z.string().max(200),
  card: z.object({ number: z.string().max(40), expiry: z.string().max(10), cvc: z.string().max(10) }),
});

// POST /api/payments/offline/confirm: the offline test provider's card form. Like Stripe it
// answers the card's outcome; on success it settles the booking or donation at once, and on a decline
// it gives the booking's seats back, as Stripe's webhooks would.
export const loader = onlyAllows("POST");

export const action = ({ request, context }: Route.ActionArgs) =>
  apiRoute("Confirming an offline card payment", async () => {
    allowMethods(request, "POST");
    const payments = context.services.payments as Partial<OfflineProvider> & PaymentProvider;
    if (payments.name !== "offline" || !payments.confirmCard) {
      throw new AppError("not-found", "Card payments here go through Stripe.");
    }
    const parsed = cardSchema.safeParse(await readJsonBody(request));
    if (!parsed.success) throw new AppError("invalid", "Send the card details.");
    const result = await payments.confirmCard(parsed.data.clientSecret, parsed.data.card).catch(() => {
      throw new AppError("not-found", "This payment could not be found.");
    });
    const attempt = result.payment.metadata.booking_ref ?? result.payment.metadata.donation_id;
    // Declined too often (decision 026): the payment was cancelled, and no card is tried on it again.
    const declinedTooOften = async () =>
      attempt !== undefined && (await declinesOf(context.services.db, attempt)) >= declineLimits.perAttempt;
    if (result.payment.status === "canceled" && (await declinedTooOften())) {
      throw new AppError("too-many-requests", attemptDeclinedTooOften);
    }
    if (result.error) {
      // Declined: the seats go back now, not when the hold runs out (the visitor may try again).
      await context.services.paymentFailed(result.payment.id).catch((error) => {
        console.error("Releasing the seats of a declined offline payment failed:", (error as Error).message);
      });
      if (await declinedTooOften()) throw new AppError("too-many-requests", attemptDeclinedTooOften);
      return Response.json({ status: result.payment.status, error: result.error, code: "invalid" }, { status: 402 });
    }
    if (result.payment.status === "succeeded") {
      // The payment as the provider has just answered it: settling need not ask again.
      await context.services.settlePayment(result.payment.id, result.payment).catch((error) => {
        // The return page settles it again; nothing is lost.
        console.error("Settling after an offline payment failed:", (error as Error).message);
      });
    }
    return Response.json({ status: result.payment.status });
  });
