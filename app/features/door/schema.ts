import { z } from "zod";
import type { TypeCount } from "~/lib/booking-items";

/** The most places one booking admits: 29 tickets, each of a type that admits at most 50. */
export const maxPlacesPerBooking = 29 * 50;

// What the door page and the server say to each other. The door page keeps the event's list on
// the phone (for when the hall has no signal), so it carries names and references but never
// e-mail addresses.

/** One booking at the door: how many it admits and how many have come in. */
export interface DoorTicket {
  bookingRef: string;
  /** The short code printed on the receipt, e.g. "3F9A-1C2B". */
  code: string;
  name: string;
  /** Places it admits (a table of eight admits eight). */
  quantity: number;
  checkedIn: number;
  refunded: boolean;
  /**
   * Its tickets of each type (decision 082): "2 × Adult, 1 × Child". Absent from a list a phone kept
   * from before types.
   */
  types?: TypeCount[];
  /**
   * Its answers to the questions staff marked `Show at the door` (decision 083), as lines
   * ("Dietary needs (Attendee 2): Vegan"). Absent from a list a phone kept from before questions.
   */
  atDoor?: string[];
  /** The latest check-in: when (ISO) and by which member of staff. */
  last: { at: string; by: string } | null;
}

/**
 * A check-in the server could not accept when it arrived: its places were already used (two
 * offline devices let in the same ticket), or the booking had been refunded meanwhile.
 */
export interface DoorConflict {
  id: string;
  outcome: "conflict" | "refunded";
  bookingRef: string;
  code: string;
  name: string;
  count: number;
  at: string;
  by: string;
  device: string;
  /** The check-ins that had already used the places. */
  earlier: { at: string; by: string; device: string; count: number }[];
}

export interface DoorList {
  event: { id: string; name: string; eventDate: string };
  tickets: DoorTicket[];
  conflicts: DoorConflict[];
  /** When the server read the list (its clock): the newer of two copies wins on the device. */
  asOf: string;
}

export type CheckInOutcome = "checked-in" | "conflict" | "refunded" | "not-found";

export interface CheckInResult {
  id: string;
  outcome: CheckInOutcome;
  ticket: DoorTicket | null;
}

/** POST /api/admin/events/:id/check-ins: check-ins made on one device, perhaps while offline. */
export const checkInsSchema = z.strictObject({
  checkIns: z
    .array(
      z.strictObject({
        id: z.uuid({ error: "must be a UUID chosen by the device" }),
        bookingRef: z.uuid({ error: "must be a booking reference" }),
        // Places: 29 tickets of a type that admits 50 each is the most one booking admits.
        count: z
          .number({ error: "must be a whole number" })
          .int("must be a whole number")
          .min(1, "must be 1 or more")
          .max(maxPlacesPerBooking, `must be at most ${maxPlacesPerBooking}`),
        scannedAt: z.iso.datetime({ offset: true, error: "must be an ISO 8601 date-time" }),
        device: z.string().trim().min(1, "must not be blank").max(40, "must be at most 40 characters"),
      }),
      { error: "must be a list" },
    )
    .min(1, "must have at least one check-in")
    .max(500, "must have at most 500 check-ins"),
});

export type CheckInRequest = z.output<typeof checkInsSchema>["checkIns"][number];
