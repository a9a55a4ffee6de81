import type { Route } from "./+types/api.bookings";
import { BookingInputError, BookingRefusedError, startBooking } from "~/features/booking/booking.server";
import { readJsonBody } from "~/lib/json-body.server";

// POST /api/bookings {eventId, name, email, quantity, replaces?}: holds the seats and starts the
// card payment; answers {bookingRef, clientSecret, amountPence}. The amount is the server's.
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return Response.json({ error: "Method not allowed." }, { status: 405 });
  const body = await readJsonBody(request);
  if (!body.ok) return body.response;
  const input = (body.value ?? {}) as Record<string, unknown>;
  try {
    const started = await startBooking(await context.services.paymentDeps(), {
      eventId: String(input.eventId ?? ""),
      name: input.name,
      email: input.email,
      quantity: input.quantity,
      replaces: typeof input.replaces === "string" ? input.replaces : undefined,
    });
    return Response.json(started, { status: 201, headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    if (error instanceof BookingInputError) return Response.json({ errors: error.errors }, { status: 400 });
    if (error instanceof BookingRefusedError) {
      return Response.json(
        { reason: error.reason, message: error.message, remaining: error.remaining },
        { status: error.reason === "no-event" ? 404 : 409 },
      );
    }
    console.error("Could not start a booking:", error);
    return Response.json({ message: `An unexpected error occurred: ${(error as Error).message}` }, { status: 502 });
  }
}
