import { z } from "zod";
import { emailPattern, personNamePattern } from "~/lib/validation";
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
  name: z
    .string(bookingMessages.name)
    .trim()
    .max(bookingLimits.name, bookingMessages.name)
    .regex(personNamePattern, bookingMessages.name),
  email: z
    .string(bookingMessages.email)
    .trim()
    .max(bookingLimits.email, bookingMessages.email)
    .regex(emailPattern, bookingMessages.email),
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

export function validateTicketInformation(
  input: unknown,
): { ok: true; data: TicketInformation } | { ok: false; errors: TicketErrors } {
  const result = ticketInformationSchema.safeParse(input);
  if (result.success) return { ok: true, data: result.data };
  const errors: TicketErrors = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0] as TicketField | undefined;
    if (field && !errors[field]) errors[field] = issue.message;
  }
  return { ok: false, errors };
}
