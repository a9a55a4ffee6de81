import { fromLondonInput, londonInputValue } from "~/lib/london-time";
import type { FieldErrors } from "~/lib/errors";
import type { EventView } from "./schema";

// The staff event form (/admin/events/new and /admin/events/:id) speaks the staff API's language:
// its fields are read into the API's event shape and checked by the same schemas and rules.

/** The form's fields, by the API's field names, with the labels staff see. */
export const eventFormLabels = {
  name: "Name",
  description: "Description",
  posterImage: "Poster",
  eventDate: "Event date",
  ticketSaleExpiry: "Ticket sale ends",
  location: "Location",
  ticketCost: "Ticket cost (£)",
  totalAvailableTickets: "Tickets available",
  isTest: "Test event",
  link: "Link",
} as const;

export type EventFormField = keyof typeof eventFormLabels;

/** What the form shows: the values as typed (strings), London times for the dates. */
export type EventFormValues = Record<Exclude<EventFormField, "isTest">, string> & { isTest: boolean };

export const emptyEventForm: EventFormValues = {
  name: "",
  description: "",
  posterImage: "",
  eventDate: "",
  ticketSaleExpiry: "",
  location: "",
  ticketCost: "",
  totalAvailableTickets: "",
  isTest: false,
  link: "",
};

export function eventFormValues(event: EventView): EventFormValues {
  return {
    name: event.name,
    description: event.description,
    posterImage: event.posterImage,
    eventDate: londonInputValue(event.eventDate),
    ticketSaleExpiry: londonInputValue(event.ticketSaleExpiry),
    location: event.location,
    ticketCost: event.ticketCostPence === null ? "" : (event.ticketCostPence / 100).toFixed(2),
    totalAvailableTickets: String(event.totalAvailableTickets),
    isTest: event.isTest,
    link: event.link ?? "",
  };
}

/** The posted form as typed, for showing it again. */
export function eventFormFromPost(form: FormData): EventFormValues {
  const text = (name: string) => String(form.get(name) ?? "").slice(0, 4000);
  return {
    name: text("name"),
    description: text("description"),
    posterImage: text("posterImage"),
    eventDate: text("eventDate"),
    ticketSaleExpiry: text("ticketSaleExpiry"),
    location: text("location"),
    ticketCost: text("ticketCost"),
    totalAvailableTickets: text("totalAvailableTickets"),
    isTest: form.get("isTest") === "on",
    link: text("link"),
  };
}

/**
 * The form's values in the API's shape, for its schemas: London date-times as ISO moments, the cost
 * in pounds (empty: not sold on this site), numbers as numbers. What cannot be read at all is
 * reported here; everything else is left to the schemas, so the rules stay in one place.
 */
export function eventInputFromForm(values: EventFormValues): { input: Record<string, unknown>; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const moment = (field: "eventDate" | "ticketSaleExpiry") => {
    const iso = fromLondonInput(values[field]);
    if (!iso) errors[field] = "must be a date and time";
    return iso ?? "";
  };
  const cost = values.ticketCost.trim().replace(/^£/, "");
  if (cost !== "" && !/^\d+(\.\d{1,2})?$/.test(cost)) {
    errors.ticketCost = "must be an amount in pounds, such as 12.50, or empty when tickets are not sold on this site";
  }
  const tickets = values.totalAvailableTickets.trim();
  if (!/^\d+$/.test(tickets)) errors.totalAvailableTickets = "must be a whole number";
  const input = {
    name: values.name,
    description: values.description,
    posterImage: values.posterImage,
    eventDate: moment("eventDate"),
    ticketSaleExpiry: moment("ticketSaleExpiry"),
    location: values.location,
    ticketCost: cost === "" ? null : Number(cost),
    totalAvailableTickets: Number(tickets),
    isTest: values.isTest,
    link: values.link.trim() === "" ? null : values.link.trim(),
  };
  return { input, errors };
}
