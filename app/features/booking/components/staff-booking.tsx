import { useRef, useState } from "react";
import { Form, Link, useNavigation } from "react-router";
import { ConfirmDialog } from "~/components/ui/confirm-dialog";
import { Field } from "~/components/ui/field";
import { BusyButton } from "~/components/ui/spinner";
import { TableScroll } from "~/components/ui/table-scroll";
import type { FormResult } from "~/lib/forms";
import { londonWhen } from "~/lib/london-time";
import { formatPounds } from "~/lib/money";
import type { StaffBooking } from "../staff-bookings.server";
import { bookingLimits, refundableMessage } from "../schema";
import { plural } from "~/lib/plural";
import { attendeeLabel } from "~/lib/questions";
import { onlyPlainTickets, refundOfTypePence, ticketsLeft, typedTickets } from "~/lib/booking-items";
import { useHydrated } from "~/components/ui/use-hydrated";

/** A booking's status as staff read it. */
export const bookingStatusWords: Record<string, string> = {
  held: "Held (not paid)",
  paid: "Paid",
  cancelled: "Cancelled (not paid)",
  failed: "Payment failed",
  refund_pending: "Being refunded",
  refunded: "Refunded",
};

const when = londonWhen;

/** The amount a refund of `quantity` tickets of a type gives back: as the server computes it (refunds.server.ts). */
export function refundPreviewPence(booking: StaffBooking, quantity: number, ticketTypeId: string) {
  return refundOfTypePence(booking, booking.items, ticketTypeId, quantity);
}

/** A booking's tickets of each type: the price, how many were bought and refunded, and the places each admits. */
function TicketsByType({ booking }: { booking: StaffBooking }) {
  const places = booking.items.some((item) => item.seatsPerTicket > 1);
  return (
    <section className="section" aria-labelledby="tickets-title">
      <h2 id="tickets-title">Tickets</h2>
      <TableScroll label="Table of tickets by type">
        <table className="admin-table">
          <thead>
            <tr>
              <th scope="col">Type</th>
              <th scope="col">Price each</th>
              <th scope="col">Bought</th>
              <th scope="col">Refunded</th>
              <th scope="col">Still valid</th>
              {places ? <th scope="col">Places each</th> : null}
            </tr>
          </thead>
          <tbody>
            {booking.items.map((item) => (
              <tr key={item.ticketTypeId || item.name}>
                <th scope="row">{item.name}</th>
                <td data-label="Price each">{formatPounds(item.pricePence)}</td>
                <td data-label="Bought">{item.quantity}</td>
                <td data-label="Refunded">{item.refunded}</td>
                <td data-label="Still valid">{booking.validPlaces > 0 ? ticketsLeft(item) : 0}</td>
                {places ? <td data-label="Places each">{item.seatsPerTicket}</td> : null}
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </section>
  );
}

/** A donation's status, in the donations pages' words. */
const giftStatusWords: Record<string, string> = {
  pending: "Waiting for payment",
  paid: "Paid",
  cancelled: "Cancelled",
  failed: "Failed",
  refund_pending: "Refund under way",
  refunded: "Refunded",
};

/** The booking's facts, its tickets by type, its refunds, its check-ins and its history, in London time. */
export function StaffBookingDetails({ booking }: { booking: StaffBooking }) {
  const several = booking.items.length > 1;
  return (
    <>
      <dl className="booking-facts">
        <div>
          <dt>Event</dt>
          <dd>
            {booking.event.name}, {when(booking.event.eventDate)}
            {booking.event.cancelledAt ? <span className="badge">Cancelled</span> : null}
          </dd>
        </div>
        <div>
          <dt>Buyer</dt>
          <dd>{booking.name}</dd>
        </div>
        <div>
          <dt>E-mail</dt>
          <dd>{booking.email}</dd>
        </div>
        <div>
          <dt>Booking reference</dt>
          <dd className="booking-ref">{booking.bookingRef}</dd>
        </div>
        <div>
          <dt>Quantity</dt>
          <dd>{booking.quantity}</dd>
        </div>
        <div>
          <dt>Tickets still valid</dt>
          <dd>{booking.validTickets}</dd>
        </div>
        <div>
          <dt>Checked in</dt>
          <dd>
            {booking.validPlaces !== booking.validTickets
              ? `${booking.checkedIn} of ${plural(booking.validPlaces, "place")}`
              : booking.checkedIn}
          </dd>
        </div>
        <div>
          <dt>Amount paid</dt>
          <dd>{formatPounds(booking.amountPence)}</dd>
        </div>
        <div>
          <dt>Refunded so far</dt>
          <dd>{formatPounds(booking.refundedPence)}</dd>
        </div>
        {booking.gift ? (
          <div>
            <dt>Donation at checkout</dt>
            <dd>
              <Link to={`/admin/donations/${booking.gift.donationId}`}>
                {formatPounds(booking.gift.amountPence)}
                {booking.gift.giftAid ? " with Gift Aid" : ""}
              </Link>{" "}
              ({giftStatusWords[booking.gift.status] ?? booking.gift.status}): paid with the tickets, refunded only when
              asked
            </dd>
          </div>
        ) : null}
        <div>
          <dt>Status</dt>
          <dd>{bookingStatusWords[booking.status] ?? booking.status}</dd>
        </div>
      </dl>
      {booking.paymentReference ? (
        <details className="provider-reference">
          <summary>The card payment&apos;s reference</summary>
          <p>
            {booking.paymentReference.label} <code>{booking.paymentReference.id}</code>
          </p>
        </details>
      ) : null}

      {/* A booking of the plain type only (an event sold at one price) has nothing to say by type. */}
      {onlyPlainTickets(booking.items) ? null : <TicketsByType booking={booking} />}
      {booking.answers.length > 0 ? (
        <section className="section" aria-labelledby="answers-title">
          <h2 id="answers-title">Answers</h2>
          <dl className="answer-facts">
            {booking.answers.map((answer) => (
              <div key={`${answer.questionId}-${answer.attendee}`}>
                <dt>
                  {answer.question}
                  {answer.attendee > 0 ? ` (${attendeeLabel(answer.attendee)})` : ""}
                </dt>
                <dd>{answer.answer}</dd>
              </div>
            ))}
          </dl>
        </section>
      ) : null}

      <section className="section" aria-labelledby="refunds-title">
        <h2 id="refunds-title">Refunds</h2>
        {booking.refunds.length === 0 ? (
          <p>No refunds.</p>
        ) : (
          <TableScroll label="Table of refunds">
            <table className="admin-table">
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Tickets</th>
                  <th scope="col">Amount</th>
                  <th scope="col">Why</th>
                  <th scope="col">Who</th>
                  <th scope="col">Status</th>
                </tr>
              </thead>
              <tbody>
                {booking.refunds.map((refund) => (
                  <tr key={refund.id}>
                    <td data-label="When">{when(refund.createdAt)}</td>
                    <td data-label="Tickets">
                      {refund.quantity === null
                        ? "All"
                        : several && refund.ticketType
                          ? `${refund.quantity} × ${refund.ticketType}`
                          : refund.quantity}
                    </td>
                    <td data-label="Amount">{formatPounds(refund.amountPence)}</td>
                    <td data-label="Why">{refund.reason}</td>
                    <td data-label="Who">{refund.staffEmail}</td>
                    <td data-label="Status">
                      {refund.status === "succeeded"
                        ? `Refunded ${refund.completedAt ? when(refund.completedAt) : ""}`
                        : refund.status === "pending"
                          ? `Refund waiting: ${refund.lastError ?? "not yet answered"}`
                          : "Failed"}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </section>

      <section className="section" aria-labelledby="check-ins-title">
        <h2 id="check-ins-title">Check-ins</h2>
        {booking.checkIns.length === 0 ? (
          <p>No one has come through the door on this booking.</p>
        ) : (
          <ul>
            {booking.checkIns.map((checkIn, i) => (
              <li key={i}>
                {when(checkIn.at)}: {plural(checkIn.count, "person", "people")}{" "}
                {checkIn.outcome === "checked-in" ? "let in" : `refused (${checkIn.outcome})`} by {checkIn.by}
              </li>
            ))}
          </ul>
        )}
      </section>

      <section className="section" aria-labelledby="history-title">
        <h2 id="history-title">History</h2>
        <ol className="booking-history">
          {booking.history.map((entry, i) => (
            <li key={i}>
              <strong>{entry.what}</strong>, <time dateTime={entry.at}>{entry.when}</time>
              {entry.note ? <p>{entry.note}</p> : null}
              {entry.reference ? (
                <details className="provider-reference">
                  <summary>The card provider&apos;s reference</summary>
                  <p>
                    {entry.reference.label} <code>{entry.reference.id}</code>
                  </p>
                </details>
              ) : null}
            </li>
          ))}
        </ol>
      </section>
    </>
  );
}

/** Refund some or all of the tickets left, with a reason, after a question naming the amount. */
export function RefundForm({
  booking,
  refundKey,
  result,
}: {
  booking: StaffBooking;
  refundKey: string;
  result: FormResult | undefined;
}) {
  const navigation = useNavigation();
  const refunding = navigation.state === "submitting" && navigation.formData?.get("intent") === "refund";
  const formRef = useRef<HTMLFormElement>(null);
  const confirmed = useRef(false);
  const [question, setQuestion] = useState<{ title: string; message: string; label: string } | null>(null);
  // Sent before the scripts ran, the form would refund without its question: Refund waits for them.
  const ready = useHydrated();
  const errors = result?.fields ?? {};
  // A booking of several types says whose tickets (decision 082); one of one type, as before.
  const several = booking.items.length > 1;
  const refundableItems = booking.items.filter((item) => item.refundable > 0);
  const [typeId, setTypeId] = useState(
    refundableItems.find((item) => item.ticketTypeId === result?.values?.ticketTypeId)?.ticketTypeId ??
      refundableItems[0]?.ticketTypeId ??
      "",
  );
  const chosen = refundableItems.find((item) => item.ticketTypeId === typeId) ?? refundableItems[0];

  if (booking.refundable === 0 || !chosen) {
    return (
      <section className="section" aria-labelledby="refund-title">
        <h2 id="refund-title">Refund</h2>
        <p>
          {booking.status === "paid"
            ? booking.validTickets > 0 && booking.amountPence - booking.refundedPence <= 0
              ? "These tickets were free, so there is no money to give back."
              : refundableMessage(0)
            : booking.status === "refunded" || booking.status === "refund_pending"
              ? "This booking has been refunded in full."
              : "Only a paid booking with valid tickets can be refunded."}
        </p>
      </section>
    );
  }
  return (
    <section className="section" aria-labelledby="refund-title">
      <h2 id="refund-title">Refund</h2>
      <Form
        method="post"
        className="form"
        id="refund-form"
        ref={formRef}
        noValidate
        onSubmit={(event) => {
          if (refunding) {
            event.preventDefault();
            return;
          }
          if (confirmed.current) {
            confirmed.current = false;
            return;
          }
          const form = new FormData(event.currentTarget);
          const quantity = Number(form.get("quantity"));
          // Nothing to confirm yet: the server says what is wrong, beside the field.
          if (!Number.isInteger(quantity) || quantity < 1 || quantity > chosen.refundable) return;
          event.preventDefault();
          // The donation added at checkout goes back too only when its box is ticked (decision 085).
          const giftPence = form.get("refundDonation") && booking.gift ? booking.gift.amountPence : 0;
          const amount = formatPounds(refundPreviewPence(booking, quantity, chosen.ticketTypeId) + giftPence);
          setQuestion({
            title: `Refund ${amount}?`,
            message: `${several ? typedTickets(quantity, chosen.name) : plural(quantity, "ticket")} of this booking will stop being valid, the seats go back on sale, ${giftPence ? `the donation of ${formatPounds(giftPence)} is refunded too, ` : ""}and ${amount} goes back to the buyer's card. This cannot be undone.`,
            label: `Refund ${amount}`,
          });
        }}
      >
        <input type="hidden" name="intent" value="refund" />
        <input type="hidden" name="key" value={refundKey} />
        {several ? (
          <Field
            id="refund-type"
            label="Type of ticket"
            hint="Whose tickets to give back: each type is refunded at the price it was bought at."
            select={{ name: "ticketTypeId", value: chosen.ticketTypeId, onChange: (e) => setTypeId(e.target.value) }}
            error={errors.ticketTypeId}
          >
            {refundableItems.map((item) => (
              <option key={item.ticketTypeId} value={item.ticketTypeId}>
                {item.name} ({formatPounds(item.pricePence)} each, up to {item.refundable})
              </option>
            ))}
          </Field>
        ) : null}
        <Field
          // Drawn afresh for another type: its own number of tickets to start from.
          key={chosen.ticketTypeId}
          id="refund-quantity"
          label="Tickets to refund"
          hint={
            <>
              {chosen.refundable === 1
                ? `1 ${several ? `${chosen.name} ` : ""}ticket can be refunded`
                : `Up to ${several ? typedTickets(chosen.refundable, chosen.name) : plural(chosen.refundable, "ticket")} can be refunded`}{" "}
              (valid and not checked in):{" "}
              {several ? (
                <>
                  {formatPounds(chosen.pricePence)} each; refunding the booking&apos;s last tickets gives back all that
                  is left of it ({formatPounds(booking.amountPence - booking.refundedPence)}), with the booking fee.
                </>
              ) : (
                <>
                  {formatPounds(chosen.pricePence)} each, or {formatPounds(booking.amountPence - booking.refundedPence)}{" "}
                  for all that are left, with the booking fee.
                </>
              )}
            </>
          }
          input={{
            name: "quantity",
            type: "number",
            inputMode: "numeric",
            min: 1,
            max: chosen.refundable,
            // What was typed comes back with the form's answer, for the type it was typed for.
            defaultValue:
              result?.values?.quantity !== undefined &&
              (result.values.ticketTypeId ?? "") === (several ? chosen.ticketTypeId : "")
                ? result.values.quantity
                : chosen.refundable,
          }}
          error={errors.quantity}
        />
        <Field
          id="refund-reason"
          label="Reason"
          textarea={{
            name: "reason",
            rows: 3,
            maxLength: 200,
            required: true,
            defaultValue: result?.values?.reason ?? "",
          }}
          error={errors.reason}
        />
        {booking.gift?.status === "paid" ? (
          <Field
            id="refund-donation"
            label={`Also refund the donation of ${formatPounds(booking.gift.amountPence)}`}
            hint="The donation made with these tickets stays with the charity unless this is ticked."
            input={{ type: "checkbox", name: "refundDonation", value: "on" }}
          />
        ) : null}
        <div className="form-actions">
          <BusyButton
            busy={refunding}
            busyLabel="Refunding…"
            className="button button-danger"
            aria-disabled={refunding}
            disabled={!ready}
          >
            Refund
          </BusyButton>
          <p className="form-progress" role="status">
            {refunding ? "Refunding…" : ""}
          </p>
        </div>
      </Form>
      <ConfirmDialog
        open={question !== null}
        title={question?.title ?? ""}
        message={question?.message ?? ""}
        confirmLabel={question?.label ?? "Refund"}
        cancelLabel="Keep the tickets"
        onCancel={() => setQuestion(null)}
        onConfirm={() => {
          setQuestion(null);
          confirmed.current = true;
          formRef.current?.requestSubmit();
        }}
      />
    </section>
  );
}

/** Correct the buyer's name and e-mail address; send the receipt again to the current one. */
export function BuyerForm({ booking, result }: { booking: StaffBooking; result: FormResult | undefined }) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" ? String(navigation.formData?.get("intent") ?? "") : "";
  const errors = result?.fields ?? {};
  const field = (name: "name" | "email", label: string, type: string) => (
    <Field
      id={`buyer-${name}`}
      label={label}
      input={{
        name,
        type,
        autoComplete: "off",
        maxLength: bookingLimits[name],
        required: true,
        defaultValue: result?.values?.[name] ?? booking[name],
      }}
      error={errors[name]}
    />
  );
  return (
    <section className="section" aria-labelledby="buyer-title">
      <h2 id="buyer-title">The buyer</h2>
      <Form method="post" className="form" noValidate key={`${booking.name}|${booking.email}`}>
        <input type="hidden" name="intent" value="correct" />
        {field("name", "Name", "text")}
        {field("email", "Email", "email")}
        <BusyButton busy={busy === "correct"} busyLabel="Saving…" aria-disabled={busy === "correct"}>
          Save the buyer's details
        </BusyButton>
      </Form>
      {booking.validTickets > 0 ? (
        <Form method="post" className="form">
          <input type="hidden" name="intent" value="resend" />
          <p>The receipt goes to {booking.email}, for the tickets still valid.</p>
          <BusyButton
            busy={busy === "resend"}
            busyLabel="Sending…"
            className="button button-secondary"
            aria-disabled={busy === "resend"}
          >
            Resend receipt
          </BusyButton>
        </Form>
      ) : null}
    </section>
  );
}
