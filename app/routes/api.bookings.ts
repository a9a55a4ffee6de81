import type { Route } from "./+types/api.bookings";
import { startBooking } from "~/features/booking/booking.server";
import { ownAttemptSchema } from "~/features/booking/schema";
import { allowMethods, apiRoute, noStore, readJsonBody } from "~/infra/http/api.server";

// POST /api/bookings {eventId, name, email, quantity, replaces?: {bookingRef, clientSecret}}: holds
// the seats and starts the card payment; answers {bookingRef, clientSecret, amountPence,
// holdExpiresAt}. The amount is the server's. `replaces` is the visitor's previous unpaid attempt, released first.
export const action = ({ request, context }: Route.ActionArgs) =>
  apiRoute("Starting a booking", async () => {
    allowMethods(request, "POST");
    const input = await readJsonBody(request);
    const started = await startBooking(await context.services.paymentDeps(), {
      eventId: String(input.eventId ?? ""),
      name: input.name,
      email: input.email,
      quantity: input.quantity,
      replaces: ownAttemptSchema.safeParse(input.replaces).data,
    });
    return Response.json(started, { status: 201, headers: noStore });
  });
