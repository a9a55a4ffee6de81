import type { Route } from "./+types/api.donations";
import { startDonation } from "~/features/donations/donations.server";
import { ownDonationAttemptSchema } from "~/features/donations/schema";
import { allowMethods, apiRoute, noStore, onlyAllows, readJsonBody } from "~/infra/http/api.server";
import { guardPaymentStart } from "~/infra/payments/card-testing.server";

// POST /api/donations {amount, name, email, giftAid, firstName, surname, houseNameOrNumber, postcode,
// scope, replaces?: {donationId, clientSecret}, challenge?}: records the donation and starts its card
// payment; answers {donationId, clientSecret, amountPence}. The amount is the one validated here.
// `replaces` is the visitor's previous unpaid attempt, proved by its client secret. Starts are
// limited per address, and during a spike need a solved challenge, as for bookings.
export const loader = onlyAllows("POST");

export const action = ({ request, context }: Route.ActionArgs) =>
  apiRoute("Starting a donation", async () => {
    allowMethods(request, "POST");
    const input = await readJsonBody(request);
    const { services } = context;
    const clientKey = await guardPaymentStart(
      services,
      { clientAddress: context.clientAddress, challenge: input.challenge },
      services.clock.now(),
    );
    const replaces = ownDonationAttemptSchema.safeParse(input.replaces).data;
    const started = await startDonation(services, input, replaces, clientKey);
    return Response.json(started, { status: 201, headers: noStore });
  });
