// The e-mails the site sends, as outbox jobs of a known kind (docs/project-structure.md). Each kind
// has its label (for staff) and what it is about; its key, `<kind>:<id>`, is built only by
// `mailKey`, so one thing gets one e-mail however often it is queued.

export const mailKinds = {
  "booking-receipt": { label: "Booking receipt", about: "booking reference" },
  "booking-refunded": { label: "Refund notice", about: "booking reference" },
  "donation-receipt": { label: "Donation receipt", about: "donation id" },
  "donation-refunded": { label: "Donation refund notice", about: "donation id" },
  // docs/decisions/089-monthly-gifts.md
  "regular-gift-welcome": { label: "Monthly gift: welcome and first receipt", about: "donation id" },
  "regular-gift-receipt": { label: "Monthly gift: receipt", about: "donation id" },
  "regular-gift-cancelled": { label: "Monthly gift: cancelled", about: "regular gift id" },
  "regular-gift-statement": { label: "Monthly gift: the tax year's statement", about: "tax year:e-mail" },
  "regular-gift-link": { label: "Monthly gift: a fresh private link", about: "link token's SHA-256" },
  "regular-gift-payment-failed": { label: "Monthly gift: a payment did not go through", about: "provider's bill id" },
  // docs/decisions/090-donors-manage-their-gift.md
  "regular-gift-changed": { label: "Monthly gift: a change the donor made", about: "change id" },
  // docs/decisions/092-direct-debit.md
  "regular-gift-mandate": {
    label: "Monthly gift: confirmation of the Direct Debit Instruction",
    about: "provider's mandate id",
  },
  "regular-gift-advance-notice": { label: "Monthly gift: Direct Debit advance notice", about: "change id" },
  "regular-gift-mandate-inactive": {
    label: "Monthly gift: the Direct Debit has stopped",
    about: "provider's mandate id",
  },
  "volunteer-confirmation": { label: "Volunteer confirmation", about: "volunteer sign-up id" },
  // Bookings and refunds (docs/decisions/015-bookings-and-refunds.md).
  "booking-refund": { label: "Refund made", about: "refund id" },
  "event-cancelled": { label: "Event cancelled", about: "booking reference" },
  "receipt-sent-again": { label: "Receipt sent again", about: "resend id" },
  // Staff accounts and telling the charity's office (docs/decisions/017-staff-emails-and-the-office.md).
  "staff-invitation": { label: "Staff invitation", about: "invitation token's SHA-256" },
  // docs/decisions/072-password-reset.md
  "staff-password-reset": { label: "Staff password reset", about: "reset token's SHA-256" },
  // docs/decisions/086-a-waiting-list.md
  "waiting-list-offer": { label: "Waiting-list offer", about: "offer id" },
  // docs/decisions/096-event-reminders.md
  "event-reminder": { label: "Event reminder", about: "booking reference@event date" },
  // docs/decisions/095-messages-to-attendees.md
  "event-message": { label: "A message to an event's people", about: "message id:booking reference or entry id" },
  "event-thank-you": { label: "Thank you for coming", about: "message id:booking reference" },
  "office-booking": { label: "Office: a booking", about: "booking reference" },
  "office-donation": { label: "Office: a donation", about: "donation id" },
  "office-volunteer": { label: "Office: a volunteer sign-up", about: "volunteer sign-up id" },
  "office-summary": { label: "Office: the day's summary", about: "London date (YYYY-MM-DD)" },
  // Whoever looks after the site (app/infra/signals.server.ts).
  "site-alert": { label: "Alert: the site needs attention", about: "kind@time" },
} as const satisfies Record<string, { label: string; about: string }>;

export type MailKind = keyof typeof mailKinds;

/** The outbox key of the e-mail of this kind about this booking or donation: `booking-receipt:<ref>`. */
export function mailKey(kind: MailKind, about: string): string {
  return `${kind}:${about}`;
}

export function isMailKind(kind: string): kind is MailKind {
  return Object.hasOwn(mailKinds, kind);
}
