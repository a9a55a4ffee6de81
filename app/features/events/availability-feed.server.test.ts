import { describe, expect, it } from "vitest";
import { availabilityChanges } from "./availability-feed.server";
import { mergeAvailability } from "./components/use-live-availability";
import type { Availability } from "./schema";

const counts = (sold: number, total = 100): Availability => ({ sold, remaining: total - sold, soldOut: sold >= total });

describe("what changed between two pictures", () => {
  it("lists only the events whose counts differ, new events, and null for an event that is gone", () => {
    const before = { a: counts(1), b: counts(2), gone: counts(3) };
    const after = { a: counts(1), b: counts(5), added: counts(0) };
    expect(availabilityChanges(before, after)).toEqual({ b: counts(5), added: counts(0), gone: null });
    expect(availabilityChanges(after, after)).toEqual({});
    // A seat held in a checkout changes only `reservedUntil` of a full event: that is a change too.
    const reserved = { a: { sold: 1, remaining: 0, soldOut: false, reservedUntil: "2026-11-22T10:15:00.000Z" } };
    expect(availabilityChanges({ a: { sold: 1, remaining: 0, soldOut: false } }, reserved)).toEqual(reserved);
  });

  it("a type's standing changing is a change, though the seats are the same", () => {
    const adult = { id: "a1", name: "Adult", pricePence: 1250, status: "on-sale" as const, left: 4 };
    const child = { id: "c1", name: "Child", pricePence: 500, status: "on-sale" as const, left: 6 };
    const before = { a: { ...counts(4), types: [adult, child] } };
    const after = { a: { ...counts(4), types: [{ ...adult, status: "ended" as const, left: 0 }, child] } };
    expect(availabilityChanges(before, after)).toEqual(after);
    expect(availabilityChanges(after, structuredClone(after))).toEqual({});
  });

  it("the browser's merge of the changes gives the new picture", () => {
    const before = { a: counts(1), b: counts(2), gone: counts(3) };
    const after = { a: counts(1), b: counts(5), added: counts(0) };
    expect(mergeAvailability(before, availabilityChanges(before, after))).toEqual(after);
  });
});

// The feed as visitors meet it, over HTTP (limits, the drop, shutdown): server/live-feed.test.ts.
