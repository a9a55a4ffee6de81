import type { Route } from "./+types/api.donations";
import { startDonation } from "~/features/donations/donations.server";
import { allowMethods, apiRoute, noStore, readJsonBody } from "~/infra/http/api.server";

// POST /api/donations {amount, name, email, giftAid, firstName, surname, houseNameOrNumber, postcode,
// scope, replaces?}: records the donation and starts its card payment; answers {donationId,
// clientSecret, amountPence}. The amount is the one validated here.
export const action = ({ request, context }: Route.ActionArgs) =>
  apiRoute("Starting a donation", async () => {
    allowMethods(request, "POST");
    const input = await readJsonBody(request);
    const replaces = typeof input.replaces === "string" ? input.replaces : undefined;
    const started = await startDonation(await context.services.paymentDeps(), input, replaces);
    return Response.json(started, { status: 201, headers: noStore });
  });
