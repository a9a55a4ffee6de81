import { expect, type APIRequestContext } from "@playwright/test";

/**
 * A visitor's booking, paid, as the booking page makes it: POST /api/bookings, then the offline
 * card provider's confirmation with a good test card. Its booking reference.
 */
export async function buyTickets(
  request: APIRequestContext,
  eventId: string,
  buyer: { name: string; email: string; quantity: number },
): Promise<string> {
  const started = await request.post("/api/bookings", { data: { eventId, ...buyer } });
  expect(started.status(), await started.text()).toBe(201);
  const { bookingRef, clientSecret } = (await started.json()) as { bookingRef: string; clientSecret: string };
  const paid = await request.post("/api/payments/offline/confirm", {
    data: { clientSecret, card: { number: "4242 4242 4242 4242", expiry: "12/34", cvc: "123" } },
  });
  expect(await paid.json()).toEqual({ status: "succeeded" });
  return bookingRef;
}
