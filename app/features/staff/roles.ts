// What each member of staff may do (docs/decisions/071-staff-roles.md). One table, read by the
// routes that refuse (requireStaffPage / requireStaff with a capability), by the staff navigation
// that only offers what a member may open, and by the staff page that gives roles.

export const staffRoles = ["owner", "treasurer", "events", "door"] as const;
export type StaffRole = (typeof staffRoles)[number];

/** A kind of work. Every staff page and API names the one it needs. */
export type Capability =
  /** The door: check-in pages, their API, an event's door list. */
  | "checkIn"
  /** Events: create, edit, cancel, their tickets and pictures. */
  | "events"
  /** Bookings: find, read, refund. */
  | "bookings"
  /** Donations, their refunds, Gift Aid claims. */
  | "money"
  /** People's data: the people search, export and erasure, volunteers. */
  | "people"
  /** The public pages' words and pictures. */
  | "pages"
  /** Staff accounts, settings, the system page, the audit log, the e-mail outbox. */
  | "site";

const allowed: Record<StaffRole, readonly Capability[]> = {
  owner: ["checkIn", "events", "bookings", "money", "people", "pages", "site"],
  treasurer: ["bookings", "money", "people"],
  events: ["checkIn", "events", "bookings", "pages"],
  door: ["checkIn"],
};

export function can(role: StaffRole, capability: Capability): boolean {
  return allowed[role].includes(capability);
}

export function isStaffRole(value: unknown): value is StaffRole {
  return typeof value === "string" && (staffRoles as readonly string[]).includes(value);
}

/** The names staff read, and what each role is for (the staff page shows both). */
export const roleNames: Record<StaffRole, { name: string; summary: string }> = {
  owner: { name: "Owner", summary: "Everything, including staff accounts and settings." },
  treasurer: { name: "Treasurer", summary: "Money, Gift Aid, bookings and people's data." },
  events: { name: "Events", summary: "Events, bookings, check-in and the public pages." },
  door: { name: "Door", summary: "Check-in at the door only." },
};
