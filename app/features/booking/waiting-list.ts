import { z } from "zod";
import { validate } from "~/lib/forms";
import { emailField, personNameField } from "~/lib/validation";
import { maxTickets, minTickets } from "./pricing";
import { bookingLimits, bookingMessages } from "./schema";

// The waiting list's form, shared by the page, the API and the server (docs/decisions/086-a-waiting-list.md).

export const waitingListLabels = {
  heading: "Join the waiting list",
  name: "Name",
  email: "Email",
  tickets: "Number of tickets",
  type: "Ticket type",
  anyType: "Any type",
  submit: "Join the waiting list",
} as const;

export const waitingListMessages = {
  tickets: `Invalid ticket quantity: please enter a valid number between ${minTickets}-${maxTickets}`,
  type: "Choose a ticket type of this event.",
  summary: "Please check your name, email address and the number of tickets.",
  closed: "Ticket sales for this event have closed.",
  cancelled: "This event has been cancelled.",
  notSold: "Tickets for this event are not sold on this site.",
  onSale: "Tickets are on sale now: book them instead of joining the waiting list.",
  offerGone: "This offer is no longer open. It may have been declined, run out or been paid already.",
} as const;

/** The form's value for "any type": offered the first type on sale that fits. */
export const anyType = "any";

export const waitingListSchema = z.object({
  name: personNameField(bookingMessages.name, bookingLimits.name),
  email: emailField(bookingMessages.email, bookingLimits.email),
  tickets: z
    .union([z.string(), z.number()], waitingListMessages.tickets)
    .transform((value) => String(value).trim())
    .refine((value) => /^\d{1,3}$/.test(value), waitingListMessages.tickets)
    .transform(Number)
    .refine((value) => value >= minTickets && value <= maxTickets, waitingListMessages.tickets),
  ticketTypeId: z
    .union([z.string(), z.null(), z.undefined()])
    .transform((value) => (value === undefined || value === null || value.trim() === "" ? anyType : value.trim())),
});

export type WaitingListField = keyof z.input<typeof waitingListSchema>;

export function validateWaitingList(input: unknown) {
  return validate<typeof waitingListSchema, WaitingListField>(waitingListSchema, input);
}

/** What the person is told once they are on the list. */
export function joinedMessage(joined: {
  eventName: string;
  tickets: number;
  typeName: string | null;
  updated: boolean;
  hours: number;
}) {
  const what = `${joined.tickets} ${joined.typeName ? `${joined.typeName} ` : ""}${joined.tickets === 1 ? "ticket" : "tickets"}`;
  return joined.updated
    ? `Your place on the waiting list for ${joined.eventName} is kept, now for ${what}. We will e-mail you if they become free.`
    : `You are on the waiting list for ${joined.eventName} (${what}). If tickets become free we will e-mail you an offer, which holds them for you for up to ${joined.hours} hours.`;
}

/** An offer's state, as staff read it. */
export const offerStateWords: Record<string, string> = {
  open: "Offer open",
  accepted: "Paid",
  declined: "Declined",
  expired: "Ran out",
  withdrawn: "Withdrawn",
};

/** An entry's state, as staff read it. */
export const entryStateWords: Record<string, string> = {
  waiting: "Waiting",
  offered: "Offered",
  booked: "Booked",
  passed: "Passed on",
  removed: "Removed",
};
