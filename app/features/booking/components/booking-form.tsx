import { useRef, type FormEvent } from "react";
import { TextField } from "~/components/ui/text-field";
import { useFormFields } from "~/components/ui/use-form-fields";
import { formatPounds } from "~/lib/money";
import { bookingFeePence, bookingTotalPence, maxTickets, quantityForOverview } from "../pricing";
import {
  bookingLimits,
  bookingMessages,
  onlyLeftMessage,
  validateTicketInformation,
  type StartedBooking,
  type TicketErrors,
} from "../schema";
import { postJson } from "~/lib/api-client";
import { unexpectedError } from "~/components/payment/card-form";
import { CardPayment, PaymentStartError, useCardPayment } from "~/components/payment/card-payment";

export interface BookableEvent {
  id: string;
  name: string;
  eventDate: string;
  location: string;
  ticketCostPence: number;
}

interface BookingFormProps {
  event: BookableEvent;
  /** Seats left right now (the live feed keeps it current). */
  remaining: number;
  provider: "offline" | "stripe";
  /** Stripe's publishable key, when Stripe takes the payments. */
  publishableKey?: string;
}

/** Where the provider sends the visitor after paying: /confirmation with the spec's query parameters. */
export function confirmationUrl(
  event: BookableEvent,
  booking: { bookingRef: string },
  details: { name: string; email: string; quantity: number },
) {
  const params = new URLSearchParams({
    eventId: event.id,
    eventName: event.name,
    eventLoaction: event.location,
    eventDate: event.eventDate,
    bookingRef: booking.bookingRef,
    ticketCost: (event.ticketCostPence / 100).toFixed(2),
    ticketQuantity: String(details.quantity),
    userName: details.name,
    userEmail: details.email,
  });
  return `/confirmation?${params.toString()}`;
}

/**
 * The booking overview, the ticket information form and the card form. Seats are held only when
 * the visitor presses Pay now; a second attempt (another card, another quantity) replaces the first.
 */
export function BookingForm({ event, remaining, provider, publishableKey }: BookingFormProps) {
  const { values, change, errors, setErrors, hasErrors, headingRef } = useFormFields({
    name: "",
    email: "",
    quantity: "1",
  });
  const payment = useCardPayment();
  const previousAttempt = useRef<string | undefined>(undefined);

  const quantity = quantityForOverview(values.quantity);
  const totalPence = bookingTotalPence(event.ticketCostPence, quantity);

  function check(): { name: string; email: string; quantity: number } | undefined {
    const validation = validateTicketInformation(values);
    if (!validation.ok) {
      setErrors(validation.errors);
      return undefined;
    }
    if (validation.data.quantity > remaining) {
      setErrors({ quantity: onlyLeftMessage(remaining) });
      return undefined;
    }
    setErrors({});
    return validation.data;
  }

  async function pay(submitEvent: FormEvent<HTMLFormElement>) {
    submitEvent.preventDefault();
    if (payment.submitting || !payment.ready) return;
    payment.setError(null);
    const details = check();
    if (!details) return;
    await payment.pay(async () => {
      const answer = await postJson<StartedBooking>("/api/bookings", {
        eventId: event.id,
        ...details,
        replaces: previousAttempt.current,
      });
      if (!answer.ok) {
        // A field's problem (a quantity over what is left) shows beside the field; the rest under the button.
        if (answer.fields) return void setErrors(answer.fields as TicketErrors);
        throw new PaymentStartError(
          answer.code === "conflict" || answer.code === "not-found" ? answer.error : unexpectedError(answer.error),
        );
      }
      const started = answer.data;
      previousAttempt.current = started.bookingRef;
      const returnUrl = confirmationUrl(event, { bookingRef: started.bookingRef }, details);
      return { clientSecret: started.clientSecret, returnUrl, email: details.email };
    });
  }

  return (
    <div className="booking-layout">
      <section className="booking-overview" aria-labelledby="overview-heading">
        <h2 id="overview-heading">Booking overview</h2>
        <dl aria-live="polite">
          <dt>Event cost</dt>
          <dd>{formatPounds(event.ticketCostPence)}</dd>
          <dt>Booking fee</dt>
          <dd>{formatPounds(bookingFeePence)}</dd>
          <dt>Tickets</dt>
          <dd>{quantity}</dd>
          <dt className="total">Total</dt>
          <dd className="total">{formatPounds(totalPence)}</dd>
        </dl>
      </section>
      <form className="form" noValidate onSubmit={pay} aria-labelledby="ticket-information">
        <h2 id="ticket-information" ref={headingRef} tabIndex={-1}>
          Ticket information
        </h2>
        {hasErrors ? (
          <p className="form-summary" role="alert">
            {bookingMessages.summary}
          </p>
        ) : null}
        <TextField
          idPrefix="ticket"
          label="Name"
          name="name"
          autoComplete="name"
          value={values.name}
          error={errors.name}
          maxLength={bookingLimits.name}
          onChange={(v) => change("name", v)}
        />
        <TextField
          idPrefix="ticket"
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          value={values.email}
          error={errors.email}
          maxLength={bookingLimits.email}
          onChange={(v) => change("email", v)}
        />
        <TextField
          idPrefix="ticket"
          label={`Number of tickets (1 to ${Math.min(maxTickets, Math.max(remaining, 1))})`}
          name="quantity"
          inputMode="numeric"
          value={values.quantity}
          error={errors.quantity}
          maxLength={3}
          onChange={(v) => change("quantity", v)}
        />
        <CardPayment payment={payment} provider={provider} publishableKey={publishableKey} amountPence={totalPence} />
      </form>
    </div>
  );
}
