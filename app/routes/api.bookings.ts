import type { Route } from "./+types/api.bookings";
import { startBooking } from "~/features/booking/checkout.server";
import { ownAttemptSchema, ticketChoice, validateTicketInformation } from "~/features/booking/schema";
import { allowMethods, apiRoute, noStore, onlyAllows, readJsonBody } from "~/infra/http/api.server";
import { guardPaymentStart } from "~/infra/payments/card-testing.server";

// POST /api/bookings {eventId, name, email, quantity | tickets: {<type id>: quantity}, promoCode?, answers?:
// {<question id>: "answer" | ["attendee 1's", …]} (decision 083), replaces?:
// {bookingRef, clientSecret}, challenge?, donationAmount?, giftAid?, firstName?, surname?,
// houseNameOrNumber?, postcode?, scope?}: holds the seats and starts the card payment, for the
// tickets and a gift at checkout together (decision 085: a donation in pounds, with the Gift Aid
// fields POST /api/donations takes); answers
// {bookingRef, clientSecret, amountPence, holdExpiresAt}, with `free: true` and no payment to make
// when the tickets are all free (decision 078). The amount is the server's. `replaces` is the visitor's previous
// unpaid attempt, released first. Starts are limited per address, and during a spike need a solved
// challenge (`challenge`, from GET /api/challenge): 429 or 403 challenge-required, nothing held.
// A start that could not hold anything anyway (sold out, all seats in checkouts, a closed event)
// is answered so first, with no challenge to solve (decision 037), from the event's last reading
// while nothing has changed since (decision 042).
export const loader = onlyAllows("POST");

export const action = ({ request, context }: Route.ActionArgs) =>
  apiRoute("Starting a booking", async () => {
    allowMethods(request, "POST");
    const input = await readJsonBody(request);
    const { services } = context;
    const now = services.clock.now();
    const eventId = String(input.eventId ?? "");
    const choice = ticketChoice(input);
    const ticket = validateTicketInformation({ ...input, quantity: choice.ok ? choice.total : input.quantity });
    // A visitor replacing their own attempt may need the seats it holds: counted after its release.
    // The tickets asked for are a floor on the seats they take (a table of eight takes more).
    if (choice.ok && ticket.ok && input.replaces == null) {
      const refusal = await services.earlyRefusals.refusal(services.db, { eventId, quantity: choice.total }, now);
      if (refusal) throw refusal;
    }
    const clientKey = await guardPaymentStart(
      services,
      { clientAddress: context.clientAddress, challenge: input.challenge },
      now,
    );
    const started = await startBooking(services, {
      eventId,
      name: input.name,
      email: input.email,
      quantity: input.quantity,
      tickets: input.tickets,
      promoCode: input.promoCode,
      answers: input.answers,
      replaces: ownAttemptSchema.safeParse(input.replaces).data,
      clientKey,
      gift: input,
    });
    return Response.json(started, { status: 201, headers: noStore });
  });
