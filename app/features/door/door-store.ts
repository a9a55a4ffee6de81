import { codeMatches, readBookingCode } from "~/lib/booking-code";
import { doorStoragePrefix } from "~/lib/door-offline";
import { personMatches, personQuery, personRank } from "~/lib/search-fold";
import type { CheckInRequest, DoorList, DoorTicket } from "./schema";

// What the door page keeps on the phone, so it works in a hall with no signal: the event's door
// list as last heard from the server, and the check-ins made here that the server has not yet
// acknowledged. What staff see is the list with those check-ins applied on top.

/** A check-in waiting to be sent, with who made it (to show "by whom" before the server answers). */
export interface QueuedCheckIn extends CheckInRequest {
  by: string;
}

export interface DoorState {
  list: DoorList;
  queue: QueuedCheckIn[];
}

const storageKey = (eventId: string) => `${doorStoragePrefix}:${eventId}`;

/** The list the server sent most recently, of two copies (the page's own and the phone's). */
export function newerList(a: DoorList, b: DoorList): DoorList {
  return a.asOf >= b.asOf ? a : b;
}

/** The tickets as staff should see them: the server's list with this phone's unsent check-ins applied. */
export function ticketsWithQueue({ list, queue }: DoorState): DoorTicket[] {
  if (queue.length === 0) return list.tickets;
  return list.tickets.map((ticket) => {
    const mine = queue.filter((item) => item.bookingRef === ticket.bookingRef);
    if (mine.length === 0) return ticket;
    const latest = mine.at(-1)!;
    return {
      ...ticket,
      checkedIn: Math.min(ticket.quantity, ticket.checkedIn + mine.reduce((sum, item) => sum + item.count, 0)),
      last: { at: latest.scannedAt, by: latest.by },
    };
  });
}

/** The ticket a typed or scanned reference names, if this event has it. */
export function findTicket(tickets: DoorTicket[], typed: string): DoorTicket | undefined {
  const code = readBookingCode(typed);
  return code ? tickets.find((ticket) => codeMatches(code, ticket.bookingRef)) : undefined;
}

/** The most names a search at the door lists. */
export const doorChoicesLimit = 20;

/**
 * The tickets whose buyer's name matches what was typed (any part of it, accents and capitals
 * ignored: decision 077), best first, from the list kept on the phone, so it works offline.
 */
export function findByName(tickets: DoorTicket[], typed: string): DoorTicket[] {
  const query = personQuery(typed);
  if (!query) return [];
  return tickets
    .filter((ticket) => personMatches(query, { name: ticket.name }))
    .map((ticket) => ({ ticket, rank: personRank(query, ticket.name) }))
    .sort((a, b) => a.rank - b.rank || a.ticket.name.localeCompare(b.ticket.name, "en-GB"))
    .slice(0, doorChoicesLimit)
    .map(({ ticket }) => ticket);
}

/** Whether the door should ask the server: an e-mail address, which the phone's list leaves out. */
export function looksLikeEmail(typed: string): boolean {
  return typed.includes("@");
}

export function loadDoorState(storage: Storage, eventId: string): DoorState | undefined {
  try {
    const stored = JSON.parse(storage.getItem(storageKey(eventId)) ?? "null") as DoorState | null;
    return stored && stored.list?.event?.id === eventId && Array.isArray(stored.queue) ? stored : undefined;
  } catch {
    return undefined;
  }
}

export function saveDoorState(storage: Storage, state: DoorState) {
  try {
    storage.setItem(storageKey(state.list.event.id), JSON.stringify(state));
  } catch {
    // A full or blocked storage leaves the page working from memory while it stays open.
  }
}

/** This phone's name in the check-in records: chosen once, kept. */
export function deviceName(storage: Storage): string {
  const key = `${doorStoragePrefix}-device`;
  let name = storage.getItem(key);
  if (!name) {
    name = `door-${crypto.randomUUID().slice(0, 4)}`;
    storage.setItem(key, name);
  }
  return name;
}
