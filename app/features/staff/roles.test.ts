import { describe, expect, it } from "vitest";
import { can, homeOf, refusalFor, rolesThatCan, roleNames, staffRoles, type Capability } from "./roles";

// The one table of who may do what (docs/decisions/071-staff-roles.md), read whole.

const capabilities: Capability[] = ["checkIn", "events", "bookings", "money", "people", "pages", "site"];

describe("the roles", () => {
  it("give each role its work, and nothing else", () => {
    const matrix = Object.fromEntries(
      staffRoles.map((role) => [role, capabilities.filter((capability) => can(role, capability))]),
    );
    expect(matrix).toEqual({
      owner: ["checkIn", "events", "bookings", "money", "people", "pages", "site"],
      treasurer: ["bookings", "money", "people"],
      events: ["checkIn", "events", "bookings", "pages"],
      door: ["checkIn"],
    });
  });

  it("leave staff accounts and settings to Owners alone, and every kind of work to an Owner", () => {
    expect(rolesThatCan("site")).toEqual(["owner"]);
    for (const capability of capabilities) expect(rolesThatCan(capability)[0]).toBe("owner");
  });

  it("name each role with a one-line summary for the staff page", () => {
    expect(staffRoles.map((role) => roleNames[role].name)).toEqual(["Owner", "Treasurer", "Events", "Door"]);
    for (const role of staffRoles) expect(roleNames[role].summary).toMatch(/^[A-Z].+\.$/);
  });

  it("send a Door member to check-in, and everyone else to the staff home", () => {
    expect(homeOf("door")).toEqual({ href: "/admin/check-in", label: "Go to check-in" });
    for (const role of ["owner", "treasurer", "events"] as const) expect(homeOf(role).href).toBe("/admin");
  });

  it("say which roles may, and what the member's own is for", () => {
    expect(refusalFor("door", "money").page).toBe(
      "This page is for the Owner or Treasurer roles. Your role is Door: check-in at the door only. If you need it, ask an Owner to change your role.",
    );
    expect(refusalFor("events", "site").page).toContain("This page is for the Owner role.");
    expect(refusalFor("door", ["events", "pages"]).api).toBe(
      "This needs the Owner or Events roles; your role is Door.",
    );
    expect(refusalFor("door", "bookings").api).toBe(
      "This needs the Owner, Treasurer or Events roles; your role is Door.",
    );
  });
});
