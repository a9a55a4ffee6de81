import { describe, expect, it } from "vitest";
import {
  findByName,
  findTicket,
  loadDoorState,
  looksLikeEmail,
  newerList,
  saveDoorState,
  ticketsWithQueue,
  type DoorState,
} from "./door-store";
import type { DoorList } from "./schema";

const ref = "3f9a1c2b-7d4e-4a1b-9c3d-5e6f7a8b9c0d";
const list = (asOf: string, checkedIn = 0): DoorList => ({
  event: { id: "e1", name: "Quiz Night", eventDate: "2026-12-05T19:00:00.000Z" },
  tickets: [
    { bookingRef: ref, code: "3F9A-1C2B", name: "Amina Mushi", quantity: 4, checkedIn, refunded: false, last: null },
  ],
  conflicts: [],
  asOf,
});

class MemoryStorage implements Storage {
  private items = new Map<string, string>();
  get length() {
    return this.items.size;
  }
  clear() {
    this.items.clear();
  }
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  key(index: number) {
    return [...this.items.keys()][index] ?? null;
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
  setItem(key: string, value: string) {
    this.items.set(key, value);
  }
}

describe("what the door page keeps on the phone", () => {
  it("applies unsent check-ins on top of the server's list, with who made them", () => {
    const state: DoorState = {
      list: list("2026-12-05T19:00:00.000Z", 1),
      queue: [
        {
          id: "a",
          bookingRef: ref,
          count: 2,
          scannedAt: "2026-12-05T19:03:00.000Z",
          device: "door-1",
          by: "sam@example.org",
        },
      ],
    };
    expect(ticketsWithQueue(state)[0]).toMatchObject({
      checkedIn: 3,
      last: { at: "2026-12-05T19:03:00.000Z", by: "sam@example.org" },
    });
  });

  it("keeps the more recent of two copies of the list", () => {
    const older = list("2026-12-05T19:00:00.000Z");
    const newer = list("2026-12-05T19:00:01.000Z", 2);
    expect(newerList(older, newer)).toBe(newer);
    expect(newerList(newer, older)).toBe(newer);
  });

  it("finds a ticket by its reference or the code on the receipt", () => {
    const tickets = list("2026-12-05T19:00:00.000Z").tickets;
    expect(findTicket(tickets, "3f9a 1c2b")?.name).toBe("Amina Mushi");
    expect(findTicket(tickets, ref.toUpperCase())?.name).toBe("Amina Mushi");
    expect(findTicket(tickets, "0000-0000")).toBeUndefined();
    expect(findTicket(tickets, "not a code")).toBeUndefined();
  });

  it("stores and reads back its state, and ignores what it cannot read", () => {
    const storage = new MemoryStorage();
    const state: DoorState = { list: list("2026-12-05T19:00:00.000Z"), queue: [] };
    saveDoorState(storage, state);
    expect(loadDoorState(storage, "e1")).toEqual(state);
    expect(loadDoorState(storage, "e2")).toBeUndefined();
    storage.setItem("kilele-door:e1", "{not json");
    expect(loadDoorState(storage, "e1")).toBeUndefined();
  });
});

describe("finding a guest by name on the phone (offline too)", () => {
  const ticket = (name: string, code: string) => ({
    bookingRef: `${code.toLowerCase().replace("-", "")}-7d4e-4a1b-9c3d-5e6f7a8b9c0d`,
    code,
    name,
    quantity: 1,
    checkedIn: 0,
    refunded: false,
    last: null,
  });
  const door = [
    ticket("Siobhán Okafor", "AAAA-0001"),
    ticket("Grace Nwokafor", "AAAA-0002"),
    ticket("Okafor Emeka", "AAAA-0003"),
    ticket("Amina Mushi", "AAAA-0004"),
  ];

  it("ignores accents and capitals, matches any part of the name, and puts names starting with it first", () => {
    expect(findByName(door, "siobhan").map((t) => t.name)).toEqual(["Siobhán Okafor"]);
    expect(findByName(door, "OKAFOR").map((t) => t.name)).toEqual(["Okafor Emeka", "Siobhán Okafor", "Grace Nwokafor"]);
    expect(findByName(door, "okafor siobhan").map((t) => t.name)).toEqual(["Siobhán Okafor"]);
    expect(findByName(door, "Okafr")).toEqual([]);
    expect(findByName(door, "  ")).toEqual([]);
  });

  it("asks the server only for an e-mail address, which the phone does not keep", () => {
    expect(looksLikeEmail("chidi@exa")).toBe(true);
    expect(looksLikeEmail("Okafor")).toBe(false);
  });
});
