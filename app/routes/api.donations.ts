import type { Route } from "./+types/api.donations";
import { DonationInputError, startDonation } from "~/features/donations/donations.server";
import { readJsonBody } from "~/lib/json-body.server";

// POST /api/donations {amount, name, email, giftAid, firstName, surname, houseNameOrNumber, postcode,
// scope, replaces?}: records the donation and starts its card payment; answers {donationId,
// clientSecret, amountPence}. The amount is the one validated here.
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return Response.json({ error: "Method not allowed." }, { status: 405 });
  const body = await readJsonBody(request);
  if (!body.ok) return body.response;
  const input = (body.value ?? {}) as Record<string, unknown>;
  try {
    const started = await startDonation(
      await context.services.paymentDeps(),
      input,
      typeof input.replaces === "string" ? input.replaces : undefined,
    );
    return Response.json(started, { status: 201, headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    if (error instanceof DonationInputError) return Response.json({ errors: error.errors }, { status: 400 });
    console.error("Could not start a donation:", error);
    return Response.json({ message: `An unexpected error occurred: ${(error as Error).message}` }, { status: 502 });
  }
}
