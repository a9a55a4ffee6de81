import { useEffect, useRef, useState, type FormEvent } from "react";
import { Link } from "react-router";
import { Field, FieldGroup, FieldMessage } from "~/components/ui/field";
import { FormNotice } from "~/components/ui/form-notice";
import { useFormFields } from "~/components/ui/use-form-fields";
import { itemsTotalPence, maxTickets, minTickets, quantityForOverview, typedQuantity } from "../pricing";
import {
  bookingLimits,
  bookingMessages,
  onlyLeftMessage,
  ticketChoice,
  typeField,
  validateTicketInformation,
  type OwnAttempt,
  type ReleasedHold,
  type StartedBooking,
} from "../schema";
import { PriceRows, type TicketLine } from "./booking-summary";
import { PromoCodeField, promoLines, type PromoOnPage } from "./promo-code-field";
import { useBookingGift } from "./booking-gift";
import {
  answerErrorLinks,
  answersFromForm,
  BookingQuestions,
  ErrorLinks,
  type BookingQuestionsData,
} from "./booking-questions";
import { answersSummary } from "~/lib/questions";
import { typeLabel } from "~/lib/ticket-types";
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
  /** The event's questions (decision 083). */
  questions?: BookingQuestionsData;
}

/** A ticket type of an event sold by type, as the booking page offers it (the live feed keeps it current). */
export interface BookableType {
  id: string;
  name: string;
  pricePence: number;
  /** Whether it can be bought now. */
  onSale: boolean;
  /** How many can be chosen now (0 unless on sale). */
  left: number;
  /** What the page says of it: "Child: 3 left", "Adult: sold out"; null when nothing. */
  words: string | null;
}

interface BookingFormProps {
  event: BookableEvent;
  /** The event's types, when it sells more than one: a quantity is asked of each. */
  types?: BookableType[];
  /** Seats left right now (the live feed keeps it current). */
  remaining: number;
  /** Why nobody can book just now (sold out, or every seat left reserved), from the live feed; null when they can. */
  unavailable: string | null;
  provider: "offline" | "stripe";
  /** Stripe's publishable key, when Stripe takes the payments. */
  publishableKey?: string;
  /** The promo code applied on the page (`?code=`), or why it cannot be (decision 084). */
  promo?: PromoOnPage;
  /** The charity's name, for a gift's Gift Aid declaration (decision 085). */
  charityName: string;
}

/**
 * Where the provider sends the visitor after paying: /confirmation with the spec's query parameters.
 * Tickets of several types at different prices (`ticketsPence`, what they come to) give `ticketCost`
 * as their average price, so that ticketCost × ticketQuantity is still what the tickets cost, to
 * the penny's rounding (decision 081); the page itself shows the booking as stored.
 */
export function confirmationUrl(
  event: BookableEvent,
  booking: { bookingRef: string },
  details: { name: string; email: string; quantity: number; ticketsPence?: number },
) {
  const ticketCostPence =
    details.ticketsPence === undefined ? event.ticketCostPence : details.ticketsPence / details.quantity;
  const params = new URLSearchParams({
    eventId: event.id,
    eventName: event.name,
    eventLoaction: event.location,
    eventDate: event.eventDate,
    bookingRef: booking.bookingRef,
    ticketCost: (Math.round(ticketCostPence) / 100).toFixed(2),
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
export function BookingForm(props: BookingFormProps) {
  const { event, types, remaining, unavailable, provider, publishableKey, promo } = props;
  const byType = types && types.length > 1 ? types : undefined;
  const { values, change, errors, setErrors, hasErrors, headingRef } = useFormFields<Record<string, string>>({
    name: "",
    email: "",
    quantity: "1",
    // The specification's one ticket by default: of the first type on sale.
    ...Object.fromEntries(
      (byType ?? []).map((type) => [typeField(type.id), type === firstOnSale(byType!) ? "1" : "0"]),
    ),
  });
  const payment = useCardPayment();
  const proofOfWork = useProofOfWork();
  /** The visitor's unpaid attempt whose seats may still be held. */
  const attempt = useRef<OwnAttempt | undefined>(undefined);
  // Once the visitor has tried to pay, the form stays: a change in what is left (their own seats
  // coming back, say) is answered when they next press Pay now, not by taking the form away.
  const [tried, setTried] = useState(false);

  const quantity = quantityForOverview(values.quantity!);
  // Of an event sold by type, the tickets chosen of each type on sale.
  const lines: (TicketLine & { id: string })[] = (byType ?? [])
    .filter((type) => type.onSale)
    .map((type) => ({ ...type, quantity: typedQuantity(values[typeField(type.id)]) }))
    .filter((line) => line.quantity > 0);
  // With a promo code, the tickets at the prices it gives (decision 084).
  const promoted = promoLines(promo, byType ? lines : [{ pricePence: event.ticketCostPence, quantity }]);
  const totalPence = itemsTotalPence(promoted.items);
  // Tickets chosen that are all free: nothing to pay, so no card is asked for (decision 078).
  const gift = useBookingGift(props.charityName, values.name!); // A gift at checkout (decision 085).
  const free = totalPence + gift.pence === 0 && (!byType || lines.length > 0);

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

  function changeTypeQuantity(typeId: string, value: string) {
    change(typeField(typeId), value);
    if (errors.quantity) setErrors((current) => ({ ...current, quantity: undefined }));
    // As for one quantity: a different choice of tickets is a different attempt.
    if (!payment.submitting) void release("quantity");
  }

  /** The ticket information checked as the server will; by type for an event sold by type. */
  function check(): TicketDetails | undefined {
    if (byType) return checkByType(byType);
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

  function checkByType(offered: BookableType[]): TicketDetails | undefined {
    const onSale = offered.filter((type) => type.onSale);
    const tickets = Object.fromEntries(onSale.map((type) => [type.id, values[typeField(type.id)] ?? ""]));
    const choice = ticketChoice({ tickets });
    const validation = validateTicketInformation({ ...values, quantity: choice.ok ? choice.total : "" });
    const found: Record<string, string> = validation.ok ? {} : { ...validation.errors };
    if (!choice.ok) found.quantity = bookingMessages.quantity;
    // What is left of each type, unless the visitor's own attempt holds some of it (the server counts it back).
    if (choice.ok && !attempt.current) {
      for (const type of onSale) {
        const asked = choice.byType?.get(type.id) ?? 0;
        if (asked > type.left) found[typeField(type.id)] = typeLeftMessage(type);
      }
    }
    if (Object.keys(found).length > 0 || !validation.ok || !choice.ok) {
      setErrors(found);
      return undefined;
    }
    setErrors({});
    return {
      name: validation.data.name,
      email: validation.data.email,
      quantity: choice.total,
      tickets: Object.fromEntries(choice.byType!),
      ticketsPence: lines.reduce((sum, line) => sum + line.pricePence * line.quantity, 0),
    };
  }

  async function pay(submitEvent: FormEvent<HTMLFormElement>) {
    submitEvent.preventDefault();
    if (payment.submitting || !payment.ready) return;
    payment.setError(null);
    const [details, giftFields] = [check(), gift.check()];
    if (!details || !giftFields) return;
    const answers = answersFromForm(submitEvent.currentTarget);
    setTried(true);
    await payment.pay(
      async () => {
        // By type, `tickets`; of the one type, `quantity`, as the specification has it.
        const tickets = details.tickets ? { tickets: details.tickets } : { quantity: details.quantity };
        const body = {
          eventId: event.id,
          name: details.name,
          email: details.email,
          ...tickets,
          ...promoted.body,
          ...giftFields,
          ...answers,
          replaces: attempt.current,
        };
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
          if (answer.fields?.promoCode) throw new PaymentStartError(answer.error); // the code (decision 084)
          if (gift.show(answer.fields)) return;
          if (answer.fields) return void setErrors(answer.fields);
          throw new PaymentStartError(shownAsSaid.has(answer.code) ? answer.error : unexpectedError(answer.error));
        }
        const started = answer.data;
        attempt.current = { bookingRef: started.bookingRef, clientSecret: started.clientSecret };
        const returnUrl = confirmationUrl(event, { bookingRef: started.bookingRef }, details);
        return { clientSecret: started.clientSecret, returnUrl, email: details.email };
      },
      () => release("declined"),
      free,
    );
  }

  if (unavailable && !tried && !payment.submitting) return <BookingClosed reason={unavailable} eventId={event.id} />;

  return (
    <div className="booking-layout">
      <section className="booking-overview" aria-labelledby="overview-heading">
        <h2 id="overview-heading">Booking overview</h2>
        <dl aria-live="polite">
          {byType ? (
            <PriceRows
              lines={lines}
              totalPence={totalPence + gift.pence}
              discount={promoted.discount}
              giftPence={gift.pence}
            />
          ) : (
            <PriceRows
              ticketCostPence={event.ticketCostPence}
              quantity={quantity}
              totalPence={totalPence + gift.pence}
              discount={promoted.discount}
              giftPence={gift.pence}
            />
          )}
        </dl>
        <PromoCodeField eventId={event.id} promo={promo} error={errors.promoCode} notice={promoted.notice} />
      </section>
      <form className="form" noValidate onSubmit={pay} aria-labelledby="ticket-information">
        <h2 id="ticket-information" ref={headingRef} tabIndex={-1}>
          Ticket information
        </h2>
        {hasErrors ? <ErrorSummary event={event} types={byType} errors={errors} /> : null}
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
        {byType ? (
          <TypeQuantities types={byType} values={values} errors={errors} onValue={changeTypeQuantity} />
        ) : (
          <Field
            id="ticket-quantity"
            label={`Number of tickets (1 to ${Math.min(maxTickets, Math.max(remaining, 1))})`}
            input={{ name: "quantity", inputMode: "numeric", value: values.quantity, maxLength: 3, required: true }}
            error={errors.quantity}
            onValue={changeQuantity}
          />
        )}
        <BookingQuestions
          data={event.questions}
          values={values}
          byType={byType !== undefined}
          errors={errors}
          summary={false}
        />
        {gift.element}
        {proofOfWork.element}
        <CardPayment
          payment={payment}
          provider={provider}
          publishableKey={publishableKey}
          amountPence={totalPence + gift.pence}
          free={free}
        />
      </form>
    </div>
  );
}

/**
 * The form's one error summary, linking to each field refused by its name, the answers to the
 * event's questions among them (decision 083): a screen reader hears one alert, not one for the
 * form and another for its questions. Only answers refused: "Please answer the questions marked below."
 */
function ErrorSummary({
  event,
  types,
  errors,
}: {
  event: BookableEvent;
  types: BookableType[] | undefined;
  errors: Partial<Record<string, string>>;
}) {
  // Each link names its field; the field's own message is beside it, read with it.
  const own: Record<string, [string, string]> = {
    name: ["#ticket-name", "Name"],
    email: ["#ticket-email", "Email"],
    quantity: [types ? "#ticket-quantities" : "#ticket-quantity", "Number of tickets"],
    ...Object.fromEntries((types ?? []).map((type) => [typeField(type.id), [`#ticket-type-${type.id}`, type.name]])),
  };
  const fields = Object.entries(errors)
    .filter(([key, message]) => message && own[key])
    .map(([key]) => ({ key, href: own[key]![0], label: own[key]![1], message: "" }));
  const answers = answerErrorLinks(event.questions, errors).map((link) => ({ ...link, message: "" }));
  const links = [...fields, ...answers];
  return (
    <FormNotice ok={false} details={links.length > 0 ? <ErrorLinks links={links} /> : undefined}>
      {fields.length === 0 && answers.length > 0 ? answersSummary : bookingMessages.summary}
    </FormNotice>
  );
}

/** What the form sends: the buyer, and the tickets (of the one type, or `tickets` by type). */
interface TicketDetails {
  name: string;
  email: string;
  quantity: number;
  tickets?: Record<string, number>;
  /** What the tickets come to, for the confirmation's `ticketCost` (by type only). */
  ticketsPence?: number;
}

function firstOnSale(types: BookableType[]) {
  return types.find((type) => type.onSale);
}

/** "Only 3 Child tickets left.", as the checkout says it. */
function typeLeftMessage(type: BookableType) {
  return `Only ${type.left} ${type.name} ${type.left === 1 ? "ticket" : "tickets"} left.`;
}

/**
 * A quantity for each type of an event sold by type, labelled with the type's name and price; a
 * type that cannot be bought now says why in place of its field. The rule on the number of tickets
 * in all (1 to 29) and its message are the specification's, under the group's legend.
 */
function TypeQuantities({
  types,
  values,
  errors,
  onValue,
}: {
  types: BookableType[];
  values: Record<string, string | undefined>;
  errors: Partial<Record<string, string>>;
  onValue: (typeId: string, value: string) => void;
}) {
  return (
    <FieldGroup
      id="ticket-quantities"
      legend={`Number of tickets (${minTickets} to ${maxTickets} in all)`}
      error={errors.quantity}
      className="form-group ticket-types"
    >
      {types.map((type) => {
        const field = typeField(type.id);
        const id = `ticket-type-${type.id}`;
        if (!type.onSale) {
          return (
            <div key={type.id} className="field ticket-type-closed" id={id}>
              <p className="ticket-type-label">{typeLabel(type)}</p>
              <p className="ticket-type-words">{type.words ?? `${type.name}: not on sale`}</p>
              <FieldMessage id={`${id}-error`} message={errors[field]} />
            </div>
          );
        }
        return (
          <Field
            key={type.id}
            id={id}
            label={typeLabel(type)}
            hint={type.words}
            className="ticket-type"
            input={{ name: field, inputMode: "numeric", value: values[field] ?? "0", maxLength: 3 }}
            error={errors[field]}
            onValue={(value) => onValue(type.id, value)}
          />
        );
      })}
    </FieldGroup>
  );
}
