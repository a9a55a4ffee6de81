import { useState, type FormEvent } from "react";
import { postJson } from "~/lib/api-client";
import { londonDate, londonTime } from "~/lib/london-time";
import { unexpectedError } from "~/components/payment/card-form";
import { CardPayment, PaymentStartError, useCardPayment } from "~/components/payment/card-payment";
import { typeField, type StartedBooking } from "../schema";
import { answersFromForm, BookingQuestions, type BookingQuestionsData } from "./booking-questions";
import { PriceRows } from "./booking-summary";
import { confirmationUrl, type BookableEvent } from "./booking-form";

/** A waiting-list offer as the booking page shows it: exactly the tickets it holds, for whom. */
export interface OfferShown {
  name: string;
  email: string;
  typeName: string;
  ticketTypeId: string;
  tickets: number;
  pricePence: number;
  amountPence: number;
  expiresAt: string;
}

/**
 * Paying for a waiting-list offer (docs/decisions/086-a-waiting-list.md): the tickets, the buyer
 * and the amount are the offer's, so what is left to fill in is the event's questions, if it asks
 * any (decision 083), and the card. A refused card keeps the offer's seats (they are held until
 * the offer ends), and the visitor may try again.
 */
export function OfferPayment({
  event,
  offer,
  token,
  provider,
  publishableKey,
  questions,
}: {
  event: BookableEvent;
  offer: OfferShown;
  /** The event's questions, asked of the offer's tickets. */
  questions?: BookingQuestionsData;
  token: string;
  provider: "offline" | "stripe";
  publishableKey?: string;
}) {
  const payment = useCardPayment();
  const [errors, setErrors] = useState<Partial<Record<string, string>>>({});
  const free = offer.amountPence === 0;
  const line = { name: offer.typeName, pricePence: offer.pricePence, quantity: offer.tickets };

  async function pay(submitEvent: FormEvent<HTMLFormElement>) {
    submitEvent.preventDefault();
    if (payment.submitting || !payment.ready) return;
    payment.setError(null);
    const answers = answersFromForm(submitEvent.currentTarget);
    await payment.pay(
      async () => {
        const answer = await postJson<StartedBooking>("/api/waiting-list/offer", { offer: token, ...answers });
        setErrors(answer.ok ? {} : (answer.fields ?? {}));
        // Answers refused show beside their questions, with the section's summary.
        if (!answer.ok && answer.fields) return;
        if (!answer.ok) {
          const known = answer.code === "conflict" || answer.code === "not-found";
          throw new PaymentStartError(known ? answer.error : unexpectedError(answer.error));
        }
        const details = {
          name: offer.name,
          email: offer.email,
          quantity: offer.tickets,
          ticketsPence: offer.pricePence * offer.tickets,
        };
        const returnUrl = confirmationUrl(event, { bookingRef: answer.data.bookingRef }, details);
        return { clientSecret: answer.data.clientSecret, returnUrl, email: offer.email };
      },
      undefined,
      free,
    );
  }

  return (
    <div className="booking-layout">
      <section className="booking-overview" aria-labelledby="overview-heading">
        <h2 id="overview-heading">Booking overview</h2>
        <p>
          Your waiting-list offer, held for {offer.name} until {londonDate(offer.expiresAt)} at{" "}
          {londonTime(offer.expiresAt)}.
        </p>
        <dl aria-live="polite">
          <PriceRows lines={[line]} totalPence={offer.amountPence} />
        </dl>
      </section>
      <form className="form" noValidate onSubmit={pay} aria-labelledby="card-details">
        <BookingQuestions
          data={questions}
          values={{ [typeField(offer.ticketTypeId)]: String(offer.tickets) }}
          byType
          errors={errors}
        />
        <CardPayment
          payment={payment}
          provider={provider}
          publishableKey={publishableKey}
          amountPence={offer.amountPence}
          free={free}
        />
      </form>
    </div>
  );
}
