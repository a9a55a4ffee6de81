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

/** The roles that may do this kind of work, in the table's order (Owner first). */
export function rolesThatCan(capability: Capability): StaffRole[] {
  return staffRoles.filter((role) => can(role, capability));
}

/** Where a member of this role starts, and the one place a Door member may work. */
export function homeOf(role: StaffRole): { href: string; label: string } {
  return can(role, "events") || can(role, "money") || can(role, "site")
    ? { href: "/admin", label: "Go to the staff home" }
    : { href: "/admin/check-in", label: "Go to check-in" };
}

/** "Owner", "Owner or Events", "Owner, Treasurer or Events": the roles named as a reader says them. */
function roleList(roles: StaffRole[]): string {
  const names = roles.map((role) => roleNames[role].name);
  return names.length <= 1 ? (names[0] ?? "") : `${names.slice(0, -1).join(", ")} or ${names.at(-1)}`;
}

/**
 * What a member is told when their role does not reach a page or an API: which roles do, and what
 * theirs is for. `needs` is one capability, or several of which any one is enough.
 */
export function refusalFor(role: StaffRole, needs: Capability | readonly Capability[]) {
  const wanted = typeof needs === "string" ? [needs] : needs;
  const roles = staffRoles.filter((r) => wanted.some((capability) => can(r, capability)));
  const who = `${roleList(roles)} role${roles.length === 1 ? "" : "s"}`;
  return {
    /** For a page: which roles may open it, and what this member's role is for. */
    page: `This page is for the ${who}. Your role is ${roleNames[role].name}: ${lowerFirst(roleNames[role].summary)} If you need it, ask an Owner to change your role.`,
    /** For the API: one line. */
    api: `This needs the ${who}; your role is ${roleNames[role].name}.`,
  };
}

function lowerFirst(text: string) {
  return text.charAt(0).toLowerCase() + text.slice(1);
}

/** Whether this role may do any one of these kinds of work. */
export function canAny(role: StaffRole, needs: Capability | readonly Capability[]): boolean {
  return (typeof needs === "string" ? [needs] : needs).some((capability) => can(role, capability));
}
