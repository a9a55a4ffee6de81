import { describe, expect, it } from "vitest";
import {
  itemsLeft,
  onlyPlainTickets,
  placesOf,
  refundableOfType,
  refundOfTypePence,
  ticketsInWords,
  typesHeld,
  type BookedItem,
} from "./booking-items";

const adult: BookedItem = {
  ticketTypeId: "a",
  name: "Adult",
  quantity: 2,
  refunded: 0,
  pricePence: 1250,
  seatsPerTicket: 1,
};
const child: BookedItem = {
  ticketTypeId: "c",
  name: "Child",
  quantity: 2,
  refunded: 1,
  pricePence: 500,
  seatsPerTicket: 1,
};
const table: BookedItem = {
  ticketTypeId: "t",
  name: "Table of 8",
  quantity: 1,
  refunded: 0,
  pricePence: 8000,
  seatsPerTicket: 8,
};

describe("a booking's tickets by type", () => {
  it("says them in words, what is left of them and the places they admit", () => {
    expect(ticketsInWords([adult, child, table])).toBe("2 × Adult, 2 × Child, 1 × Table of 8");
    expect(ticketsInWords(itemsLeft([adult, child, table]))).toBe("2 × Adult, 1 × Child, 1 × Table of 8");
    expect(placesOf(itemsLeft([adult, child, table]))).toBe(11);
    expect(typesHeld([adult, child], false).map((t) => t.quantity)).toEqual([2, 2]);
  });

  it("knows the plain type, one place each, from a named or larger one", () => {
    expect(onlyPlainTickets([{ name: "Ticket", seatsPerTicket: 1 }])).toBe(true);
    expect(onlyPlainTickets([])).toBe(true);
    expect(onlyPlainTickets([{ name: "Adult", seatsPerTicket: 1 }])).toBe(false);
    expect(onlyPlainTickets([{ name: "Ticket", seatsPerTicket: 8 }])).toBe(false);
  });

  it("refunds a type only as far as the places not yet used at the door allow", () => {
    expect(refundableOfType(table, 8)).toBe(1);
    expect(refundableOfType(table, 7)).toBe(0);
    expect(refundableOfType(adult, 1)).toBe(1);
    expect(refundableOfType(child, 10)).toBe(1);
  });

  it("gives back a type's price each, or everything left, the fee too, for the booking's last tickets", () => {
    const booking = { amountPence: 2 * 1250 + 2 * 500 + 8000 + 49, refundedPence: 500 };
    expect(refundOfTypePence(booking, [adult, child, table], "a", 1)).toBe(1250);
    expect(refundOfTypePence(booking, [adult, child, table], "t", 1)).toBe(8000);
    const onlyTableLeft = [{ ...adult, refunded: 2 }, { ...child, refunded: 2 }, table];
    expect(refundOfTypePence({ amountPence: booking.amountPence, refundedPence: 3500 }, onlyTableLeft, "t", 1)).toBe(
      8049,
    );
  });
});
