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

/** The field a type's quantity is answered under: `tickets.<type id>`. */
export const typeField = (typeId: string) => `tickets.${typeId}`;

/**
 * The tickets asked for by type (decision 078): `tickets` is `{<type id>: quantity}`, each a whole
 * number from 0, together 1 to 29; types asked for none are left out. Without `tickets`, `quantity`
 * is asked of the event's one type (null here: the checkout finds it). The quantity message is the
 * specification's either way.
 */
export function ticketChoice(input: {
  quantity?: unknown;
  tickets?: unknown;
}): { ok: true; byType: Map<string, number> | null; total: number } | { ok: false; errors: TicketErrors } {
  const tickets = input.tickets;
  if (tickets === undefined || tickets === null) {
    const quantity = ticketInformationSchema.shape.quantity.safeParse(input.quantity);
    return quantity.success
      ? { ok: true, byType: null, total: quantity.data }
      : { ok: false, errors: { quantity: bookingMessages.quantity } };
  }
  const refuse = { ok: false as const, errors: { quantity: bookingMessages.quantity } };
  if (typeof tickets !== "object" || Array.isArray(tickets)) return refuse;
  const entries = Object.entries(tickets as Record<string, unknown>);
  if (entries.length > 50) return refuse;
  const byType = new Map<string, number>();
  for (const [typeId, value] of entries) {
    const text = typeof value === "number" || typeof value === "string" ? String(value).trim() : "";
    if (!/^\d{1,3}$/.test(text === "" ? "0" : text) || typeId.length > 60) return refuse;
    const quantity = Number(text === "" ? "0" : text);
    if (quantity > 0) byType.set(typeId, quantity);
  }
  const total = [...byType.values()].reduce((sum, quantity) => sum + quantity, 0);
  if (total < minTickets || total > maxTickets) return refuse;
  return { ok: true, byType, total };
}

/** What POST /api/bookings answers: the hold, and what the card form needs to pay for it. */
export interface StartedBooking {
  bookingRef: string;
  clientSecret: string;
  /** What the payment is for: the tickets, and a gift at checkout if any (decision 085). */
  amountPence: number;
  holdExpiresAt: string;
  /** Tickets all free: nothing to pay, the booking is already confirmed (no client secret). */
  free?: true;
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
  ticketType: "Choose which tickets to refund: this booking has tickets of more than one type.",
  noSuchType: "This booking has no tickets of that type.",
  reason: "Say why the tickets are refunded (at most 200 characters).",
  key: "This form has expired: reload the page and try again.",
  cancelReason: "Say why the event is cancelled (at most 200 characters): the buyers are told.",
} as const;

/**
 * "Only 3 tickets can be refunded." (valid, not yet checked in); of a type, when the booking has
 * more than one: "Only 1 Child ticket can be refunded."
 */
export function refundableMessage(refundable: number, typeName?: string | null) {
  const ticket = typeName ? `${typeName} ticket` : "ticket";
  return refundable === 0
    ? `No ${ticket}s of this booking can be refunded: they are refunded or used already.`
    : `Only ${refundable} ${refundable === 1 ? ticket : `${ticket}s`} can be refunded.`;
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
  /** Which type's tickets (decision 082): needed only when the booking has tickets of more than one left. */
  ticketTypeId: z.preprocess(
    (value) => (value === "" || value === null ? undefined : value),
    z.uuid(refundMessages.noSuchType).optional(),
  ),
});

export type RefundField = keyof z.output<typeof refundSchema>;

export const buyerSchema = ticketInformationSchema.pick({ name: true, email: true });
export type BuyerField = keyof z.output<typeof buyerSchema>;

export const cancelEventSchema = z.object({ reason: requiredTextField(refundMessages.cancelReason, 200) });
