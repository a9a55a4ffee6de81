import { describe, expect, it } from "vitest";
import { sectionOf, sectionsFor } from "./sections";

const labels = (role: Parameters<typeof sectionsFor>[0]) =>
  sectionsFor(role).flatMap((group) => group.sections.map((section) => section.label));

describe("the staff navigation's sections", () => {
  it("offers each role only what it may open", () => {
    expect(labels("door")).toEqual(["Check-in"]);
    expect(labels("treasurer")).toEqual([
      "Home",
      "Bookings",
      "Donations",
      "Monthly giving",
      "Gift Aid",
      "People",
      "Volunteers",
    ]);
    expect(labels("events")).toEqual(["Home", "Check-in", "Events", "Promo codes", "Bookings", "Pages"]);
    expect(labels("owner")).toContain("Audit log");
    expect(labels("owner")).toHaveLength(16);
  });

  it("knows which section a deep page belongs to", () => {
    expect(sectionOf("/admin/events/3f2a")?.label).toBe("Events");
    expect(sectionOf("/admin/gift-aid/claims/9")?.label).toBe("Gift Aid");
    expect(sectionOf("/admin/regular-giving/5b1e")?.label).toBe("Monthly giving");
    expect(sectionOf("/admin")?.label).toBe("Home");
  });
});
