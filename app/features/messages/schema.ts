import { z } from "zod";
import { isUuid } from "~/lib/ids";
import { requiredTextField } from "~/lib/validation";

// Messages staff write to an event's people, and the thank-you to those who came
// (docs/decisions/095-messages-to-attendees.md). What the compose form and the server share.

export const messageLimits = { subject: 150, body: 5000 } as const;

export const messageWords = {
  subject: `Enter a subject of at most ${messageLimits.subject} characters.`,
  body: `Write the message, in at most ${messageLimits.body} characters.`,
  audience: "Choose who it goes to.",
  summary: "The message could not be sent: please correct what is marked.",
  nobody: "Nobody is in this audience, so nothing was sent. Choose another.",
  noThankYou: "A thank-you goes only to those who came, once the event has taken place and people were checked in.",
} as const;

/** Who a message goes to: every booking with a valid ticket, those of one type, by the door, or the waiting list. */
export type AudienceKind = "all" | "type" | "checked-in" | "not-checked-in" | "waiting-list";
export type MessageKind = "message" | "thank-you";

/** An audience as the form sends it: `all`, `type:<ticket type id>`, `checked-in`, `not-checked-in`, `waiting-list`. */
export interface Audience {
  kind: AudienceKind;
  ticketTypeId: string | null;
}

export function audienceValue(audience: Audience): string {
  return audience.kind === "type" ? `type:${audience.ticketTypeId}` : audience.kind;
}

export function parseAudience(value: string): Audience | undefined {
  if (value.startsWith("type:")) {
    const id = value.slice(5);
    return isUuid(id) ? { kind: "type", ticketTypeId: id } : undefined;
  }
  return (["all", "checked-in", "not-checked-in", "waiting-list"] as const).includes(value as never)
    ? { kind: value as AudienceKind, ticketTypeId: null }
    : undefined;
}

/** An audience in staff's words; `typeName` for a ticket type's. */
export function audienceWords(kind: AudienceKind, typeName?: string | null): string {
  switch (kind) {
    case "all":
      return "Everyone with a ticket";
    case "type":
      return typeName ? `Those with ${typeName} tickets` : "Those with tickets of one type";
    case "checked-in":
      return "Those who came (checked in)";
    case "not-checked-in":
      return "Those not checked in";
    case "waiting-list":
      return "The waiting list";
  }
}

export const messageFormSchema = z.object({
  messageId: z.string().refine(isUuid, "The form is out of date: open it again."),
  audience: z.string().transform((value, context) => {
    const audience = parseAudience(value);
    if (!audience) {
      context.addIssue({ code: "custom", message: messageWords.audience });
      return z.NEVER;
    }
    return audience;
  }),
  kind: z.enum(["message", "thank-you"]).catch("message"),
  subject: requiredTextField(messageWords.subject, messageLimits.subject),
  body: requiredTextField(messageWords.body, messageLimits.body),
});
export type MessageForm = z.output<typeof messageFormSchema>;
export type MessageField = keyof MessageForm;

/** How one message's e-mails stand: sent, failed (tried and waiting to be tried again), waiting. */
export interface MessageCounts {
  sent: number;
  failed: number;
  waiting: number;
}

/** The gifts made through an event's thank-you (one-off donations, paid and not refunded). */
export interface GiftsAfterThankYou {
  count: number;
  pence: number;
  /** Each gift, newest first (at most 100), for staff who may see donations; null for others. */
  list: { id: string; donorName: string; amountPence: number; paidAt: string | null }[] | null;
}

/** The thank-you's prepared words, which staff may change before sending. */
export function thankYouDraft(eventName: string) {
  return {
    subject: `Thank you for coming to ${eventName}`,
    body: `Thank you for coming to ${eventName}. Your support, and your company on the night, mean a great deal to us and to the people the charity works with.\n\nIf you would like to do a little more, you can give through the link below.`,
  };
}

/** The path of the donation page that counts a gift for the event (decision 095). */
export function giveAfterEventPath(eventId: string) {
  return `/payment?from=event:${eventId}`;
}

/** A message as its event's page lists it: what, to whom, when, by whom, and how its e-mails stand. */
export interface MessageSummary extends MessageCounts {
  id: string;
  kind: MessageKind;
  subject: string;
  audience: string;
  sentAt: string;
  by: string;
  addressed: number;
}
