import type { Route } from "./+types/api.waiting-list.offer";
import { startOfferBooking } from "~/features/booking/waiting-list.server";
import { allowMethods, apiRoute, noStore, onlyAllows, readJsonBody } from "~/infra/http/api.server";

// POST /api/waiting-list/offer {offer, answers?}: starts paying for a waiting-list offer through the token
// its e-mail carries: exactly the tickets it holds, for the amount held, with the answers to the
// event's questions as POST /api/bookings takes them (decision 083). Answers as POST
// /api/bookings does ({bookingRef, clientSecret, amountPence, holdExpiresAt}, `free` when nothing
// is to pay); opened again, the same payment (docs/decisions/086-a-waiting-list.md).
export const loader = onlyAllows("POST");

export const action = ({ request, context }: Route.ActionArgs) =>
  apiRoute("Paying for a waiting-list offer", async () => {
    allowMethods(request, "POST");
    const input = await readJsonBody(request);
    const started = await startOfferBooking(
      context.services,
      typeof input.offer === "string" ? input.offer : "",
      input.answers,
    );
    return Response.json(started, { status: 201, headers: noStore });
  });
