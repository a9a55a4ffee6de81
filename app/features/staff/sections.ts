import { can, homeOf, type Capability, type StaffRole } from "./roles";

// The staff area's sections, in one place: the staff navigation on every staff page, the
// breadcrumbs of the deep pages and the staff home all read this list (decision 073).

export interface StaffSection {
  /** The link's words, and the breadcrumb's. */
  label: string;
  /** Its page; every address under it belongs to it too ("/admin/events/…" is Events). */
  to: string;
  /** What a member must be allowed to do to open it; none for the home, which every member has. */
  capability?: Capability;
}

export interface StaffSectionGroup {
  name: string;
  sections: readonly StaffSection[];
}

export const staffSectionGroups: readonly StaffSectionGroup[] = [
  {
    name: "Today",
    sections: [
      { label: "Home", to: "/admin" },
      { label: "Check-in", to: "/admin/check-in", capability: "checkIn" },
    ],
  },
  {
    name: "Events and door",
    sections: [
      { label: "Events", to: "/admin/events", capability: "events" },
      { label: "Promo codes", to: "/admin/codes", capability: "events" },
      { label: "Bookings", to: "/admin/bookings", capability: "bookings" },
    ],
  },
  {
    name: "Money",
    sections: [
      { label: "Donations", to: "/admin/donations", capability: "money" },
      { label: "Monthly giving", to: "/admin/regular-giving", capability: "money" },
      { label: "Gift Aid", to: "/admin/gift-aid", capability: "money" },
    ],
  },
  {
    name: "People",
    sections: [
      { label: "People", to: "/admin/people", capability: "people" },
      { label: "Volunteers", to: "/admin/volunteers", capability: "people" },
      { label: "Staff", to: "/admin/staff", capability: "site" },
    ],
  },
  {
    name: "Site",
    sections: [
      { label: "Pages", to: "/admin/pages", capability: "pages" },
      { label: "E-mails", to: "/admin/emails", capability: "site" },
      { label: "Settings", to: "/admin/settings", capability: "site" },
      { label: "System", to: "/admin/system", capability: "site" },
      { label: "Audit log", to: "/admin/audit", capability: "site" },
    ],
  },
];

export function mayOpen(role: StaffRole, section: StaffSection): boolean {
  // The home is every member's, but one whose work starts elsewhere (Door) is sent on from it.
  if (section.to === "/admin") return homeOf(role).href === "/admin";
  return section.capability === undefined || can(role, section.capability);
}

/** The groups and sections this member may open; a group with none left is left out. */
export function sectionsFor(role: StaffRole): StaffSectionGroup[] {
  return staffSectionGroups
    .map((group) => ({ ...group, sections: group.sections.filter((section) => mayOpen(role, section)) }))
    .filter((group) => group.sections.length > 0);
}

const allSections = staffSectionGroups.flatMap((group) => group.sections);

/**
 * The section an address belongs to: the one whose page is the address or lies above it, the
 * longest such; the home only for `/admin` itself.
 */
export function sectionOf(pathname: string): StaffSection | undefined {
  const path = pathname.replace(/\/+$/, "") || "/";
  return allSections
    .filter((section) => path === section.to || (section.to !== "/admin" && path.startsWith(`${section.to}/`)))
    .sort((a, b) => b.to.length - a.to.length)[0];
}

/** The section with this page (`"/admin/events"`), for a breadcrumb. */
export function sectionAt(to: string): StaffSection | undefined {
  return allSections.find((section) => section.to === to);
}
