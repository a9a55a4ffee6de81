import { useEffect, useRef, useState, type FormEvent } from "react";
import { Link } from "react-router";
import { Field } from "~/components/ui/field";
import { FormNotice } from "~/components/ui/form-notice";
import { useFormFields } from "~/components/ui/use-form-fields";
import { bookingTotalPence, maxTickets, quantityForOverview } from "../pricing";
import {
  bookingLimits,
  bookingMessages,
  onlyLeftMessage,
  validateTicketInformation,
  type OwnAttempt,
  type ReleasedHold,
  type StartedBooking,
  type TicketErrors,
} from "../schema";
import { PriceRows } from "./booking-summary";
import { postJson } from "~/lib/api-client";
import { unexpectedError } from "~/components/payment/card-form";
import { CardPayment, PaymentStartError, useCardPayment } from "~/components/payment/card-payment";
import { useProofOfWork } from "~/components/payment/proof-of-work";
import type { ErrorCode } from "~/lib/errors";

/** Refusals whose message is written for the visitor as it stands (sold out, too many held, too many tries). */
const shownAsSaid = new Set<ErrorCode | "network">(["conflict", "not-found", "too-many-requests"]);

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
  /** Why nobody can book just now (sold out, or every seat left reserved), from the live feed; null when they can. */
  unavailable: string | null;
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

/** Why a page says a booking cannot be made, with the ways on. */
export function BookingClosed({ reason, eventId }: { reason: string | null; eventId: string }) {
  return (
    <section className="section">
      <p className="notice" role="status">
        {reason}
      </p>
      <p>
        <Link to={`/fundraising-event/${eventId}`}>About this event</Link> ·{" "}
        <Link to="/fundraising">All fundraising events</Link>
      </p>
    </section>
  );
}

/**
 * Gives back the seats of the visitor's own unpaid attempt (docs/decisions/019-seat-holds-given-back.md):
 * proved by its client secret, judged by the server with the provider. Leaving the page sends it
 * as a beacon, which outlives the page.
 */
function releaseAttempt(attempt: OwnAttempt, reason: "declined" | "quantity" | "left", beacon = false) {
  const url = `/api/bookings/${encodeURIComponent(attempt.bookingRef)}/release`;
  const body = JSON.stringify({ clientSecret: attempt.clientSecret, reason });
  if (beacon && navigator.sendBeacon?.(url, new Blob([body], { type: "application/json" }))) {
    return Promise.resolve(undefined);
  }
  return fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body, keepalive: true })
    .then((response) => (response.ok ? (response.json() as Promise<ReleasedHold>) : undefined))
    .catch(() => undefined);
}

/**
 * The booking overview, the ticket information form and the card form. Seats are held only when
 * the visitor presses Pay now. An attempt that does not end in a payment gives its seats back at
 * once: when the card is refused, when the number of tickets changes, and when the visitor leaves
 * the page; a further attempt also replaces it.
 */
export function BookingForm({ event, remaining, unavailable, provider, publishableKey }: BookingFormProps) {
  const { values, change, errors, setErrors, hasErrors, headingRef } = useFormFields({
    name: "",
    email: "",
    quantity: "1",
  });
  const payment = useCardPayment();
  const proofOfWork = useProofOfWork();
  /** The visitor's unpaid attempt whose seats may still be held. */
  const attempt = useRef<OwnAttempt | undefined>(undefined);
  // Once the visitor has tried to pay, the form stays: a change in what is left (their own seats
  // coming back, say) is answered when they next press Pay now, not by taking the form away.
  const [tried, setTried] = useState(false);

  const quantity = quantityForOverview(values.quantity);
  const totalPence = bookingTotalPence(event.ticketCostPence, quantity);

  useEffect(() => {
    const leave = () => {
      if (attempt.current) void releaseAttempt(attempt.current, "left", true);
      attempt.current = undefined;
    };
    window.addEventListener("pagehide", leave);
    return () => {
      window.removeEventListener("pagehide", leave);
      // Leaving for another page of the site.
      leave();
    };
  }, []);

  /** Gives the current attempt's seats back; kept when the provider is still working on its payment. */
  async function release(reason: "declined" | "quantity") {
    const current = attempt.current;
    if (!current) return;
    attempt.current = undefined;
    const answer = await releaseAttempt(current, reason);
    // Kept for the next chance (another change, leaving, a new attempt) if it could not go yet.
    if (!answer || answer.status === "in-progress") attempt.current ??= current;
  }

  function changeQuantity(value: string) {
    change("quantity", value);
    // A different number of tickets is a different attempt: the seats held for this one go back.
    if (!payment.submitting) void release("quantity");
  }

  function check(): { name: string; email: string; quantity: number } | undefined {
    const validation = validateTicketInformation(values);
    if (!validation.ok) {
      setErrors(validation.errors);
      return undefined;
    }
    // None left: the server says why (sold out, or reserved until when).
    if (remaining > 0 && validation.data.quantity > remaining) {
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
    setTried(true);
    await payment.pay(
      async () => {
        const body = { eventId: event.id, ...details, replaces: attempt.current };
        let answer = await postJson<StartedBooking>("/api/bookings", body);
        // During a spike of payments the server asks for a moment's proof of work first.
        if (!answer.ok && answer.code === "challenge-required") {
          const challenge = await proofOfWork.solve().catch(() => {
            throw new PaymentStartError(answer.ok ? "" : answer.error);
          });
          answer = await postJson<StartedBooking>("/api/bookings", { ...body, challenge });
        }
        if (!answer.ok) {
          // A field's problem (a quantity over what is left) shows beside the field; the rest under the button.
          if (answer.fields) return void setErrors(answer.fields as TicketErrors);
          throw new PaymentStartError(shownAsSaid.has(answer.code) ? answer.error : unexpectedError(answer.error));
        }
        const started = answer.data;
        attempt.current = { bookingRef: started.bookingRef, clientSecret: started.clientSecret };
        const returnUrl = confirmationUrl(event, { bookingRef: started.bookingRef }, details);
        return { clientSecret: started.clientSecret, returnUrl, email: details.email };
      },
      () => release("declined"),
    );
  }

  if (unavailable && !tried && !payment.submitting) return <BookingClosed reason={unavailable} eventId={event.id} />;

  return (
    <div className="booking-layout">
      <section className="booking-overview" aria-labelledby="overview-heading">
        <h2 id="overview-heading">Booking overview</h2>
        <dl aria-live="polite">
          <PriceRows ticketCostPence={event.ticketCostPence} quantity={quantity} totalPence={totalPence} />
        </dl>
      </section>
      <form className="form" noValidate onSubmit={pay} aria-labelledby="ticket-information">
        <h2 id="ticket-information" ref={headingRef} tabIndex={-1}>
          Ticket information
        </h2>
        {hasErrors ? <FormNotice ok={false}>{bookingMessages.summary}</FormNotice> : null}
        <Field
          id="ticket-name"
          label="Name"
          input={{
            name: "name",
            autoComplete: "name",
            value: values.name,
            maxLength: bookingLimits.name,
            required: true,
          }}
          error={errors.name}
          onValue={(v) => change("name", v)}
        />
        <Field
          id="ticket-email"
          label="Email"
          input={{
            name: "email",
            type: "email",
            autoComplete: "email",
            value: values.email,
            maxLength: bookingLimits.email,
            required: true,
          }}
          error={errors.email}
          onValue={(v) => change("email", v)}
        />
        <Field
          id="ticket-quantity"
          label={`Number of tickets (1 to ${Math.min(maxTickets, Math.max(remaining, 1))})`}
          input={{ name: "quantity", inputMode: "numeric", value: values.quantity, maxLength: 3, required: true }}
          error={errors.quantity}
          onValue={changeQuantity}
        />
        {proofOfWork.element}
        <CardPayment payment={payment} provider={provider} publishableKey={publishableKey} amountPence={totalPence} />
      </form>
    </div>
  );
}
