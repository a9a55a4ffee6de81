import { z } from "zod";
import { validate } from "~/lib/forms";
import { emailField, personNameField, requiredTextField } from "~/lib/validation";
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

/**
 * An unpaid attempt as its visitor's browser knows it: the reference, and the payment's client
 * secret, which only that browser (and the provider) has, as proof that it is theirs.
 */
export const ownAttemptSchema = z.object({
  bookingRef: z.string().max(60),
  clientSecret: z.string().min(1).max(200),
});
export type OwnAttempt = z.output<typeof ownAttemptSchema>;

/** Why a visitor's unpaid attempt gives its seats back (POST /api/bookings/:bookingRef/release). */
export const releaseReasons = ["declined", "quantity", "left"] as const;
export type ReleaseReason = (typeof releaseReasons)[number] | "replaced" | "expired";

export const releaseRequestSchema = z.object({
  clientSecret: ownAttemptSchema.shape.clientSecret,
  reason: z.enum(releaseReasons).catch("left"),
});

/** What the release answers: "released", "paid" (never released) or "in-progress" (kept while the provider works). */
export interface ReleasedHold {
  status: "released" | "paid" | "in-progress";
}

// Staff: refunding a booking, correcting its buyer, cancelling its event (docs/decisions/015-bookings-and-refunds.md).

export const refundMessages = {
  quantity: "Enter how many tickets to refund, as a whole number.",
  reason: "Say why the tickets are refunded (at most 200 characters).",
  key: "This form has expired: reload the page and try again.",
  cancelReason: "Say why the event is cancelled (at most 200 characters): the buyers are told.",
} as const;

/** "Only 3 tickets can be refunded." (valid, not yet checked in). */
export function refundableMessage(refundable: number) {
  return refundable === 0
    ? "No tickets of this booking can be refunded: they are refunded or used already."
    : `Only ${refundable} ${refundable === 1 ? "ticket" : "tickets"} can be refunded.`;
}

export const refundSchema = z.object({
  quantity: z
    .union([z.string(), z.number()], refundMessages.quantity)
    .transform((value) => String(value).trim())
    .refine((value) => /^\d{1,3}$/.test(value), refundMessages.quantity)
    .transform(Number)
    .refine((value) => value >= 1, refundMessages.quantity),
  reason: requiredTextField(refundMessages.reason, 200),
  key: z.uuid(refundMessages.key),
});

export type RefundField = keyof z.output<typeof refundSchema>;

export const buyerSchema = ticketInformationSchema.pick({ name: true, email: true });
export type BuyerField = keyof z.output<typeof buyerSchema>;

export const cancelEventSchema = z.object({ reason: requiredTextField(refundMessages.cancelReason, 200) });
