import type { MouseEvent } from "react";
import { Field, FieldGroup } from "~/components/ui/field";
import { londonDate, londonTime } from "~/lib/london-time";
import { eventFieldId, eventFieldLabel, eventFormLabels, ticketTypeLabels, type TicketTypeRow } from "../event-form";
import type { StaffTicketType } from "../schema";
import type { EventFormMessages } from "./event-pictures";

// The event form's `Ticket types` (decision 080): each type's fields under its own legend, what of
// it has sold beside them, and `Add a ticket type`. Without JavaScript the button posts the form and
// the page draws it again with the new type; with it, the type is added in place.

/** The intent `Add a ticket type` posts without JavaScript. */
export const addTypeIntent = "add-type";

const ticketsWord = (n: number) => (n === 1 ? "ticket" : "tickets");

/** What a saved type has sold, in a line above its fields. */
function soldLine(type: StaffTicketType): string {
  const parts = [`${type.sold} sold`];
  if (type.held > 0) parts.push(`${type.held} held in checkouts`);
  if (type.offSale) parts.push("off sale: visitors cannot buy it");
  if (type.hidden) parts.push("hidden");
  return parts.join(" · ");
}

function TypeRow({
  row,
  index,
  saved,
  messages,
}: {
  row: TicketTypeRow;
  index: number;
  saved: StaffTicketType | undefined;
  messages: EventFormMessages;
}) {
  const name = (field: keyof TicketTypeRow) => `ticketTypes.${index}.${field}`;
  const text = (
    field: "name" | "price" | "seatsPerTicket" | "cap",
    input: { inputMode?: "decimal" | "numeric"; maxLength?: number; required?: boolean },
    hint?: string,
  ) => (
    <Field
      id={eventFieldId(name(field))}
      label={ticketTypeLabels[field]}
      hint={hint}
      input={{ type: "text", name: name(field), defaultValue: row[field], ...input }}
      error={messages.errorFor(name(field))}
    />
  );
  const when = (field: "saleFrom" | "saleUntil", hint: string) => (
    <Field
      id={eventFieldId(name(field))}
      label={ticketTypeLabels[field]}
      hint={hint}
      input={{ type: "datetime-local", name: name(field), defaultValue: row[field] }}
      error={messages.errorFor(name(field))}
    />
  );
  const tick = (field: "hidden" | "offSale" | "remove", hint?: string) => (
    <Field
      id={eventFieldId(name(field))}
      label={ticketTypeLabels[field]}
      hint={hint}
      input={{ type: "checkbox", name: name(field), defaultChecked: row[field] }}
    />
  );
  const booked = saved?.booked ?? false;
  const closed = saved?.closedAt ?? null;
  return (
    <li>
      <FieldGroup
        id={eventFieldId(`ticketTypes.${index}`)}
        legend={saved ? `Ticket type ${index + 1}: ${saved.name}` : `Ticket type ${index + 1} (new)`}
        hint={saved ? soldLine(saved) : "Not saved yet."}
        error={messages.errorFor(`ticketTypes.${index}.id`)}
        className="form-group ticket-type-row"
      >
        {closed ? (
          <p className="notice ticket-type-closed" role="note">
            Closed for good on {londonDate(closed)} at {londonTime(closed)}: its {saved!.cap ?? ""}{" "}
            {ticketsWord(saved!.cap ?? 0)} at this price were taken before its sale ended. An early-bird price never
            comes back, so changing its limit or dates here does not re-open it: add a new ticket type to sell more.
          </p>
        ) : null}
        <input type="hidden" name={name("id")} value={row.id} />
        {text("name", { maxLength: 60, required: true }, "What the booking page calls it: Adult, Child, Table of 8.")}
        {text(
          "price",
          { inputMode: "decimal", required: true },
          booked
            ? `${saved!.sold} ${ticketsWord(saved!.sold)} already sold keep the price they were bought at; a new price is for tickets sold from now on. 0 for free tickets.`
            : "In pounds, such as 12.50; 0 for free tickets.",
        )}
        {text(
          "seatsPerTicket",
          { inputMode: "numeric", maxLength: 2 },
          "1 for one person; 8 for a table of eight. Each ticket takes this many of the event's Tickets available.",
        )}
        {text(
          "cap",
          { inputMode: "numeric", maxLength: 7 },
          "Optional: the most of this type to sell. Empty: only the event's Tickets available limits it.",
        )}
        {when("saleFrom", "Optional. London time. Empty: on sale as soon as the event is.")}
        {when(
          "saleUntil",
          "Optional. London time. With Tickets of this type, an early-bird price: it closes for good when they are gone or at this time, whichever is first.",
        )}
        {tick("hidden", "Shown only to a buyer with a code that reveals it.")}
        {saved
          ? tick("offSale", "Visitors cannot buy it while this is ticked; untick it to put it back on sale.")
          : null}
        {booked ? (
          <p className="field-hint">It has bookings, so it cannot be deleted: tick Off sale to stop selling it.</p>
        ) : (
          tick("remove", saved ? "Never booked, so it can go. You are asked before it is deleted." : undefined)
        )}
      </FieldGroup>
    </li>
  );
}

/**
 * The event's ticket types on the form: `rows` as they stand (saved and added), `saved` the stored
 * types for what each has sold, `onAdd` (with JavaScript) adding a type in place.
 */
export function TicketTypeFields({
  rows,
  saved,
  notSoldHere,
  messages,
  onAdd,
}: {
  rows: { key: string; row: TicketTypeRow }[];
  saved: StaffTicketType[];
  notSoldHere: boolean;
  messages: EventFormMessages;
  onAdd?: (event: MouseEvent<HTMLButtonElement>) => void;
}) {
  const byId = new Map(saved.map((type) => [type.id, type]));
  return (
    <FieldGroup
      id={eventFieldId("ticketTypes")}
      legend={eventFormLabels.ticketTypes}
      hint={
        rows.length === 0
          ? "For more than one kind of ticket (Adult and Child, a table of eight, an early-bird price), add ticket types, each with its own name and price. With none, the event sells one kind, named Ticket, at the ticket cost above."
          : "What visitors can buy, in this order. Tickets available above is shared by them all: each ticket takes its Seats per ticket from it."
      }
      error={messages.errorFor("ticketTypes")}
      className="form-group ticket-types"
    >
      {rows.length > 0 ? (
        <ol className="ticket-type-rows">
          {rows.map(({ key, row }, index) => (
            <TypeRow key={key} row={row} index={index} saved={byId.get(row.id)} messages={messages} />
          ))}
        </ol>
      ) : null}
      <button type="submit" name="intent" value={addTypeIntent} className="button button-secondary" onClick={onAdd}>
        Add a ticket type
      </button>
      {rows.length > 0 ? (
        <Field
          id={eventFieldId("notSoldHere")}
          label={eventFieldLabel("notSoldHere")}
          hint="Tick when tickets are sold elsewhere (see Link) or not at all: the types are kept, and nobody can buy them here."
          input={{ type: "checkbox", name: "notSoldHere", defaultChecked: notSoldHere }}
        />
      ) : null}
    </FieldGroup>
  );
}
