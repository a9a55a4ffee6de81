import { z } from "zod";
import { validate, type Validation } from "~/lib/forms";
import { emailField } from "~/lib/validation";

// A person's data (subject access and erasure): what staff type to find someone, and the shape of
// everything the site holds about them, as the page shows it and the JSON export gives it.

export const personMessages = {
  email: "Enter an e-mail address, such as name@example.org.",
} as const;

/** The address staff look up: trimmed here, compared without regard to case by the search. */
export const personLookupSchema = z.object({
  email: emailField(personMessages.email, 254),
});

export type PersonLookupValidation = Validation<z.infer<typeof personLookupSchema>, "email">;

export function validatePersonLookup(input: unknown): PersonLookupValidation {
  return validate<typeof personLookupSchema, "email">(personLookupSchema, input);
}

export interface HeldBooking {
  bookingReference: string;
  event: string;
  eventDate: string;
  name: string;
  emailAddress: string;
  quantity: number;
  /** Its tickets of each type (decision 082): "2 × Adult, 1 × Child", and each type's line. */
  tickets: string;
  ticketTypes: HeldTicketType[];
  /**
   * Its answers to the event's questions (decision 083): personal data, possibly about health
   * (dietary needs), so they are in the export and go at erasure. Attendee 0: once per booking.
   */
  answers: { question: string; attendee: number; answer: string }[];
  amount: string;
  amountPence: number;
  refunded: string;
  refundedPence: number;
  status: string;
  booked: string;
  paid: string | null;
}

/** The tickets of one type in a booking, at the price they were bought at. */
export interface HeldTicketType {
  type: string;
  quantity: number;
  refunded: number;
  price: string;
  pricePence: number;
  placesEach: number;
}

export interface HeldCheckIn {
  at: string;
  places: number;
  outcome: string;
}

export interface HeldTicket {
  bookingReference: string;
  event: string;
  name: string;
  emailAddress: string;
  places: number;
  valid: boolean;
  sold: string;
  placesCheckedIn: number;
  checkIns: HeldCheckIn[];
}

export interface HeldDonation {
  donationReference: string;
  amount: string;
  amountPence: number;
  name: string;
  emailAddress: string;
  status: string;
  made: string;
  paid: string | null;
  refunded: string | null;
  giftAidClaimed: boolean;
  /** The monthly gift it is one month's payment of, and that month (YYYY-MM); null for a one-off gift. */
  monthlyGiftReference: string | null;
  month: string | null;
}

/** A monthly gift (decision 089): what the donor chose, and how it stands. */
export interface HeldRegularGift {
  giftReference: string;
  amount: string;
  amountPence: number;
  dayOfMonth: number;
  name: string;
  emailAddress: string;
  status: string;
  started: string;
  cancelled: string | null;
}

export interface HeldDeclaration {
  donationReference: string;
  firstName: string;
  surname: string;
  houseNameOrNumber: string;
  postcode: string;
  scope: string;
  wording: string;
  declared: string;
  cancelled: string | null;
}

export interface HeldVolunteerSignUp {
  name: string;
  emailAddress: string;
  whyTheyWantToHelp: string;
  signedUp: string;
}

export interface HeldEmail {
  kind: string;
  subject: string;
  to: string;
  queued: string;
  sent: string | null;
  status: "sent" | "waiting" | "retrying";
}

export interface HeldRefund {
  /** "booking <reference>" or "donation <reference>". */
  of: string;
  amount: string;
  amountPence: number;
  /** Tickets given back (places, before a ticket could admit more than one). */
  places: number | null;
  /** Their type, when they were all of one. */
  ticketType: string | null;
  reason: string;
  status: string;
  asked: string;
  completed: string | null;
}

/** A place on an event's waiting list (docs/decisions/086-a-waiting-list.md). */
export interface HeldWaitingListEntry {
  event: string;
  name: string;
  emailAddress: string;
  tickets: number;
  /** The type waited for; null for any type. */
  ticketType: string | null;
  joined: string;
  state: string;
}

/** Everything the site holds about one e-mail address. */
export interface PersonData {
  emailAddress: string;
  bookings: HeldBooking[];
  tickets: HeldTicket[];
  donations: HeldDonation[];
  regularGifts: HeldRegularGift[];
  giftAidDeclarations: HeldDeclaration[];
  volunteerSignUps: HeldVolunteerSignUp[];
  emailsSent: HeldEmail[];
  refunds: HeldRefund[];
  waitingLists: HeldWaitingListEntry[];
}

/** The subject access export: every record, and when it was made. */
export interface PersonDataExport extends PersonData {
  exportedAt: string;
  about: string;
}

/** What an erasure did, record by record. */
export interface ErasureCounts {
  bookingsAnonymised: number;
  ticketsAnonymised: number;
  donationsAnonymised: number;
  /** Monthly gifts cancelled at the provider and anonymised (decision 089). */
  regularGiftsCancelled: number;
  declarationsKeptForGiftAid: number;
  declarationsAnonymised: number;
  volunteerSignUpsDeleted: number;
  unsentEmailsDeleted: number;
  sentEmailsBlanked: number;
  cardPaymentRecordsCleared: number;
  /** Answers to events' questions deleted (decision 083). */
  answersDeleted: number;
}

/** How many of each kind of record, for a summary that names no one ("3 bookings, 1 donation"). */
export function recordCounts(data: PersonData): string {
  const parts: [number, string, string][] = [
    [data.bookings.length, "booking", "bookings"],
    [data.tickets.length, "ticket", "tickets"],
    [data.donations.length, "donation", "donations"],
    [data.regularGifts.length, "monthly gift", "monthly gifts"],
    [data.giftAidDeclarations.length, "Gift Aid declaration", "Gift Aid declarations"],
    [data.volunteerSignUps.length, "volunteer sign-up", "volunteer sign-ups"],
    [data.emailsSent.length, "e-mail", "e-mails"],
    [data.refunds.length, "refund", "refunds"],
  ];
  const held = parts.filter(([n]) => n > 0).map(([n, one, many]) => `${n} ${n === 1 ? one : many}`);
  return held.length ? held.join(", ") : "nothing";
}

/** Whether anything at all is held. */
export function holdsAnything(data: PersonData): boolean {
  return (
    data.bookings.length +
      data.tickets.length +
      data.donations.length +
      data.regularGifts.length +
      data.giftAidDeclarations.length +
      data.volunteerSignUps.length +
      data.emailsSent.length +
      data.refunds.length +
      data.waitingLists.length >
    0
  );
}
