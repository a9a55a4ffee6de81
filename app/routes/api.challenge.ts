import type { Route } from "./+types/api.challenge";
import { allowMethods, apiRoute, noStore } from "~/infra/http/api.server";
import { issueChallenge } from "~/infra/payments/card-testing.server";

// GET /api/challenge: a signed proof-of-work challenge (ALTCHA) for the booking and donation forms,
// asked for only when a payment start was answered challenge-required (decision 026).
export const loader = ({ request, context }: Route.LoaderArgs) =>
  apiRoute("Making a challenge", async () => {
    allowMethods(request, "GET");
    const challenge = await issueChallenge(context.services.db, context.services.clock.now());
    return Response.json(challenge, { headers: noStore });
  });
