import { z } from "zod";
import { validate } from "~/lib/forms";
import { emailField, personNameField } from "~/lib/validation";
import { maxTickets, minTickets } from "./pricing";

export const bookingLimits = { name: 80, email: 99 } as const;

export const bookingMessages = {
  name: "Invalid name: name must only contain letters and not be left blank.",
  email: "Invalid email: please enter a valid email address.",
  quantity: `Invalid ticket quantity: please enter a valid number between ${minTickets}-${maxTickets}`,
  summary: "Invalid ticket information: Please provide a valid name, email address and ticket quantity.",
} as const;

export function onlyLeftMessage(remaining: number) {
  return `Only ${remaining} ${remaining === 1 ? "ticket" : "tickets"} left for this event.`;
}

export const ticketInformationSchema = z.object({
  name: personNameField(bookingMessages.name, bookingLimits.name),
  email: emailField(bookingMessages.email, bookingLimits.email),
  quantity: z
    .union([z.string(), z.number()], bookingMessages.quantity)
    .transform((value) => String(value).trim())
    .refine((value) => /^\d{1,3}$/.test(value), bookingMessages.quantity)
    .transform(Number)
    .refine((value) => value >= minTickets && value <= maxTickets, bookingMessages.quantity),
});

export type TicketInformation = z.output<typeof ticketInformationSchema>;
export type TicketField = keyof TicketInformation;
export type TicketErrors = Partial<Record<TicketField, string>>;

export function validateTicketInformation(input: unknown) {
  return validate<typeof ticketInformationSchema, TicketField>(ticketInformationSchema, input);
}

/** What POST /api/bookings answers: the hold, and what the card form needs to pay for it. */
export interface StartedBooking {
  bookingRef: string;
  clientSecret: string;
  amountPence: number;
  holdExpiresAt: string;
}
