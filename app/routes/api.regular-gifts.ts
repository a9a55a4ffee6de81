import type { Route } from "./+types/api.regular-gifts";
import { startRegularGift } from "~/features/donations/regular-gifts.server";
import { ownGiftAttemptSchema } from "~/features/donations/schema";
import { allowMethods, apiRoute, noStore, onlyAllows, readJsonBody } from "~/infra/http/api.server";
import { guardPaymentStart } from "~/infra/payments/card-testing.server";

// POST /api/regular-gifts {amount, dayOfMonth, name, email, giftAid, firstName, surname,
// houseNameOrNumber, postcode, replaces?: {regularGiftId, clientSecret}, challenge?}: records a
// monthly gift and starts its subscription; answers {regularGiftId, donationId, clientSecret,
// amountPence}, the client secret confirming the first month's payment with the card form. The
// amount is the one validated here. `replaces` is the visitor's earlier attempt (a declined card),
// proved by its client secret and given up first. Starts are limited per address, and during a
// spike need a solved challenge, as for one-off donations.
export const loader = onlyAllows("POST");

export const action = ({ request, context }: Route.ActionArgs) =>
  apiRoute("Starting a monthly gift", async () => {
    allowMethods(request, "POST");
    const input = await readJsonBody(request);
    const { services } = context;
    const clientKey = await guardPaymentStart(
      services,
      { clientAddress: context.clientAddress, challenge: input.challenge },
      services.clock.now(),
    );
    const replaces = ownGiftAttemptSchema.safeParse(input.replaces).data;
    const started = await startRegularGift(services, input, replaces, clientKey);
    return Response.json(started, { status: 201, headers: noStore });
  });
