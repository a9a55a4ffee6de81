import { Form, Link } from "react-router";
import { Field, FieldGroup } from "~/components/ui/field";
import { FormNotice } from "~/components/ui/form-notice";
import { TableScroll } from "~/components/ui/table-scroll";
import { londonDate, londonDay, londonWhen } from "~/lib/london-time";
import { formatPounds } from "~/lib/money";
import { lastMomentOf, type CodeSummary } from "../promo-pricing";

// The staff pages of promo codes (decision 084): the list, the new code form, one code's page.

const usesWords = (code: Pick<CodeSummary, "uses" | "maxUses">) =>
  code.maxUses === null ? String(code.uses) : `${code.uses} of ${code.maxUses}`;

/** "Until 31/12/2026" (the last day it works), or "No end". */
const untilWords = (validUntil: string | null) =>
  validUntil ? `Until ${londonDate(lastMomentOf(validUntil))}` : "No end date";

function stateWords(code: CodeSummary, now: string) {
  if (code.off) return "Switched off";
  if (code.validUntil && code.validUntil <= now) return "Expired";
  if (code.maxUses !== null && code.uses >= code.maxUses) return "Used up";
  return "Active";
}

/** Every code with its event, discount, uses and the money it gave away. */
export function PromoCodesTable({ codes, now }: { codes: CodeSummary[]; now: string }) {
  return (
    <TableScroll label="Table of promo codes">
      <table className="admin-table">
        <thead>
          <tr>
            <th scope="col">Code</th>
            <th scope="col">Event</th>
            <th scope="col">Discount</th>
            <th scope="col">Uses</th>
            <th scope="col">Given away</th>
            <th scope="col">Valid</th>
            <th scope="col">State</th>
          </tr>
        </thead>
        <tbody>
          {codes.map((code) => (
            <tr key={code.id}>
              <th scope="row">
                <Link to={`/admin/codes/${code.id}`}>{code.code}</Link>
              </th>
              <td data-label="Event">{code.eventName ?? "All events"}</td>
              <td data-label="Discount">
                {code.discount}
                {code.ticketTypes.length ? ` (${code.ticketTypes.join(", ")})` : ""}
              </td>
              <td data-label="Uses">{usesWords(code)}</td>
              <td data-label="Given away">{formatPounds(code.givenPence)}</td>
              <td data-label="Valid">{untilWords(code.validUntil)}</td>
              <td data-label="State">{stateWords(code, now)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

/** One code's facts. */
export function PromoCodeFacts({ code, now }: { code: CodeSummary; now: string }) {
  const facts: [string, string][] = [
    ["Event", code.eventName ?? "All events"],
    ["Discount", code.discount],
    ["Ticket types", code.ticketTypes.length ? code.ticketTypes.join(", ") : "Every type"],
    ["Maximum uses", code.maxUses === null ? "No limit" : String(code.maxUses)],
    ["Valid until", untilWords(code.validUntil)],
    ["Uses", usesWords(code)],
    ["Money given away", formatPounds(code.givenPence)],
    ["State", stateWords(code, now)],
    ["Made by", `${code.createdBy}, ${londonWhen(code.createdAt)}`],
  ];
  return (
    <dl className="facts">
      {facts.map(([term, value]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

export interface CodeFormEvent {
  id: string;
  name: string;
  day: string;
  types: { id: string; name: string; hidden: boolean }[];
}

/** The new code form: every field labelled as the issue names it, each with its message. */
export function PromoCodeForm({
  events,
  values,
  errors,
  message,
  busy,
}: {
  events: CodeFormEvent[];
  values: Record<string, string | string[] | undefined>;
  errors?: Record<string, string | undefined>;
  message?: string;
  busy: boolean;
}) {
  const text = (name: string) => (typeof values[name] === "string" ? (values[name] as string) : "");
  const chosenTypes = new Set(Array.isArray(values.ticketTypeIds) ? values.ticketTypeIds : [text("ticketTypeIds")]);
  const kind = text("kind") || "percent";
  return (
    <Form method="post" className="form" noValidate>
      {message ? <FormNotice ok={false}>{message}</FormNotice> : null}
      <Field
        id="code"
        label="Code"
        hint="3 to 30 letters, digits or dashes. Buyers may type it in any case."
        input={{ name: "code", autoComplete: "off", maxLength: 30, required: true, defaultValue: text("code") }}
        error={errors?.code}
      />
      <Field
        id="code-event"
        label="Event"
        select={{ name: "eventId", defaultValue: text("eventId") }}
        error={errors?.eventId}
      >
        <option value="">All events</option>
        {events.map((event) => (
          <option key={event.id} value={event.id}>
            {event.name} ({event.day})
          </option>
        ))}
      </Field>
      <FieldGroup id="code-kind" className="radio-group" legend="Discount" error={errors?.kind}>
        {(
          [
            ["percent", "A percentage off"],
            ["fixed", "An amount off each ticket"],
            ["free", "Free (complimentary tickets)"],
          ] as const
        ).map(([value, label]) => (
          <div className="radio-field" key={value}>
            <input type="radio" id={`code-kind-${value}`} name="kind" value={value} defaultChecked={kind === value} />
            <label htmlFor={`code-kind-${value}`}>{label}</label>
          </div>
        ))}
      </FieldGroup>
      <Field
        id="code-percent"
        label="Percentage off (%)"
        hint="For a percentage off: 1 to 100."
        input={{ name: "percentOff", inputMode: "numeric", maxLength: 3, defaultValue: text("percentOff") }}
        error={errors?.percentOff}
      />
      <Field
        id="code-amount"
        label="Amount off each ticket (£)"
        hint="For an amount off: a ticket never costs less than £0."
        input={{ name: "amountOff", inputMode: "decimal", maxLength: 10, defaultValue: text("amountOff") }}
        error={errors?.amountOff}
      />
      <FieldGroup
        id="code-types"
        legend="Ticket types"
        hint="Optional: the types the code applies to, of the event chosen above. None ticked: every type. A hidden type ticked here is shown to buyers who enter the code."
        error={errors?.ticketTypeIds}
      >
        {events.filter((event) => event.types.length > 0).length === 0 ? (
          <p>No event on sale has ticket types.</p>
        ) : null}
        {events
          .filter((event) => event.types.length > 0)
          .map((event) => (
            <fieldset key={event.id} className="code-event-types">
              <legend>{event.name}</legend>
              {event.types.map((type) => (
                <div className="field-checkbox" key={type.id}>
                  <input
                    type="checkbox"
                    id={`code-type-${type.id}`}
                    name="ticketTypeIds"
                    value={type.id}
                    defaultChecked={chosenTypes.has(type.id)}
                  />
                  <label htmlFor={`code-type-${type.id}`}>
                    {type.name}
                    {type.hidden ? " (hidden)" : ""}
                  </label>
                </div>
              ))}
            </fieldset>
          ))}
      </FieldGroup>
      <Field
        id="code-max-uses"
        label="Maximum uses"
        hint="Optional: how many bookings may use it. Empty: no limit."
        input={{ name: "maxUses", inputMode: "numeric", maxLength: 6, defaultValue: text("maxUses") }}
        error={errors?.maxUses}
      />
      <Field
        id="code-valid-until"
        label="Valid until"
        hint="Optional: the last day it can be used (it works until midnight, London time)."
        input={{ name: "validUntil", type: "date", defaultValue: text("validUntil") }}
        error={errors?.validUntil}
      />
      <button type="submit" className="button" aria-disabled={busy}>
        {busy ? "Saving…" : "Make the code"}
      </button>
    </Form>
  );
}

/** The last day a code works, as a date input's value ("" for no end): its end is the midnight after. */
const lastDayValue = (validUntil: string | null) => (validUntil ? londonDay(lastMomentOf(validUntil)) : "");

/**
 * A code's two limits, changed on its page (decision 097): filled with what they are now, or with
 * what was typed when a change was refused.
 */
export function PromoCodeLimitsForm({
  code,
  values,
  errors,
  message,
  busy,
}: {
  code: Pick<CodeSummary, "maxUses" | "validUntil" | "uses">;
  values?: Record<string, string | string[] | undefined>;
  errors?: Record<string, string | undefined>;
  message?: string;
  busy: boolean;
}) {
  const typed = (name: string) => (typeof values?.[name] === "string" ? (values[name] as string) : undefined);
  return (
    <Form method="post" className="form" noValidate>
      <input type="hidden" name="intent" value="limits" />
      {message ? <FormNotice ok={false}>{message}</FormNotice> : null}
      <Field
        id="code-max-uses"
        label="Maximum uses"
        hint={`How many bookings may use it; it has ${code.uses} now. Empty: no limit.`}
        input={{
          name: "maxUses",
          inputMode: "numeric",
          maxLength: 6,
          defaultValue: typed("maxUses") ?? (code.maxUses === null ? "" : String(code.maxUses)),
        }}
        error={errors?.maxUses}
      />
      <Field
        id="code-valid-until"
        label="Valid until"
        hint="The last day it can be used (it works until midnight, London time). Empty: no end date."
        input={{ name: "validUntil", type: "date", defaultValue: typed("validUntil") ?? lastDayValue(code.validUntil) }}
        error={errors?.validUntil}
      />
      <button type="submit" className="button button-secondary" aria-disabled={busy}>
        {busy ? "Saving…" : "Save the limits"}
      </button>
    </Form>
  );
}

export interface CodeBooking {
  bookingRef: string;
  status: string;
  quantity: number;
  amountPence: number;
  discountPence: number;
  createdAt: string;
  eventName: string;
}

/** The bookings that used a code. */
export function CodeBookingsTable({ bookings }: { bookings: CodeBooking[] }) {
  if (bookings.length === 0) return <p>No booking has used this code yet.</p>;
  return (
    <TableScroll label="Table of bookings that used this code">
      <table className="admin-table">
        <thead>
          <tr>
            <th scope="col">Booked</th>
            <th scope="col">Event</th>
            <th scope="col">Tickets</th>
            <th scope="col">Paid</th>
            <th scope="col">Discount</th>
            <th scope="col">Status</th>
          </tr>
        </thead>
        <tbody>
          {bookings.map((booking) => (
            <tr key={booking.bookingRef}>
              <th scope="row">
                <Link to={`/admin/bookings/${booking.bookingRef}`}>{londonWhen(booking.createdAt)}</Link>
              </th>
              <td data-label="Event">{booking.eventName}</td>
              <td data-label="Tickets">{booking.quantity}</td>
              <td data-label="Paid">{formatPounds(booking.amountPence)}</td>
              <td data-label="Discount">{formatPounds(booking.discountPence)}</td>
              <td data-label="Status">{booking.status.replace("_", " ")}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
