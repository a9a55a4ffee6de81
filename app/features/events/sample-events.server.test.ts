import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { bookingTotalPence } from "~/features/booking/pricing";
import type { DatabaseHandle } from "~/infra/db/database.server";
import { PictureLibrary } from "~/infra/images/uploads.server";
import { londonDay } from "~/lib/london-time";
import { freshDatabase } from "../../../tests/support/databases";
import { listEvents } from "./events.server";
import { seedSampleEvents } from "./sample-events.server";

// The sample events a new embedded site starts with: each shows a picture of what it is, the past
// ones fall in their season whenever the site first starts, and the sample texts agree with them.

const pictures = new PictureLibrary(path.resolve("content/images"));

describe("the sample events", () => {
  let database: DatabaseHandle;
  beforeEach(async () => {
    database = await freshDatabase("pglite");
  });
  afterEach(() => database.close());

  async function seeded(now: Date) {
    await seedSampleEvents(database.db, now, bookingTotalPence);
    return Object.fromEntries((await listEvents(database)).map((event) => [event.name, event]));
  }

  it("each have a poster of their own, drawn for what they are", async () => {
    const events = await seeded(new Date("2026-11-22T10:00:00Z"));
    const posters = Object.values(events).map((event) => event.posterImage);
    expect(new Set(posters).size).toBe(posters.length);
    expect(await pictures.missing(database.db, posters)).toEqual([]);
    expect(events["Kilele Golf Day"]?.posterImage).toBe("pages/golf-day");
    expect(events["Christmas Carol Concert"]?.posterImage).toBe("pages/carol-concert");
    expect(events["Summer Ceilidh"]?.posterImage).toBe("pages/ceilidh");
    expect(events["Kilele Quiz Night"]?.posterImage).toBe("pages/quiz-night");
    expect(events["Malvern Hills Sponsored Walk"]?.posterImage).toBe("pages/sponsored-walk");
  });

  it.each([
    ["in January", "2027-01-05T10:00:00Z"],
    ["in early July", "2026-07-08T10:00:00Z"],
    ["in late July", "2026-07-30T10:00:00Z"],
    ["in mid-December", "2026-12-16T10:00:00Z"],
    ["on New Year's Eve", "2026-12-31T23:30:00Z"],
  ])("started %s, hold the summer ceilidh in July and the carols in December, both past", async (_, at) => {
    const now = new Date(at);
    const events = await seeded(now);
    const ceilidh = events["Summer Ceilidh"]!;
    const carols = events["Christmas Carol Concert"]!;
    expect(londonDay(ceilidh.eventDate).slice(5, 7)).toBe("07");
    expect(londonDay(carols.eventDate).slice(5, 7)).toBe("12");
    for (const event of [ceilidh, carols]) {
      expect(new Date(event.eventDate).getTime()).toBeLessThan(now.getTime());
      expect(new Date(event.eventDate).getTime()).toBeGreaterThan(now.getTime() - 373 * 86_400_000);
      expect(new Date(event.ticketSaleExpiry).getTime()).toBeLessThan(new Date(event.eventDate).getTime());
    }
  });
});

describe("the sample content", () => {
  const read = (name: string) => fs.readFileSync(path.resolve("content", name, "content.json"), "utf8");
  const files = ["home", "about", "contact", "volunteering", "fundraising", "payment", "site"];

  it("puts the sponsored walk where the sample walk is, the Malvern Hills, and nowhere else", () => {
    const fundraising = JSON.parse(read("fundraising")) as { col1Text: string; description: string };
    expect(fundraising.col1Text).toContain("Malvern Hills");
    expect(fundraising.description).toContain("Malvern Hills");
    for (const name of files) {
      expect(read(name), name).not.toMatch(/Peak District/);
      expect(read(name), name).not.toMatch(
        /each (January|February|March|April|May|June|July|August|September|October|November|December)/,
      );
    }
  });

  it("points no link at a placeholder donation page", () => {
    for (const name of files) expect(read(name), name).not.toContain("donate.example.org");
  });
});
