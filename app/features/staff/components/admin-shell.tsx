import type { ReactNode } from "react";
import { Form, Link, useLocation } from "react-router";
import type { StaffRole } from "../roles";
import { can } from "../roles";
import { sectionOf, sectionsFor } from "../sections";

/** How the site is set up where staff may be misled: e-mail that nobody receives, payments that move no money. */
export interface StaffSiteStatus {
  /** `smtp`: e-mails go to a mail server; `folder`: they are only written to the outbox folder. */
  mail: "smtp" | "folder";
  /** `real`: Stripe; `demo`: the offline test cards. */
  payments: "real" | "demo";
}

/**
 * The frame of every staff page: who is signed in and Sign out, what is not real (e-mail, payments),
 * and the staff navigation. The pages inside keep the site's own navigation above, so staff can look
 * at the public pages as visitors see them.
 */
export function AdminShell({
  email,
  role,
  status,
  children,
}: {
  email: string;
  role: StaffRole;
  status: StaffSiteStatus;
  children: ReactNode;
}) {
  return (
    <div className="admin">
      <div className="admin-bar">
        <p className="admin-bar-who">
          Staff area · signed in as <strong>{email}</strong> · <Link to="/admin/account">Your account</Link>
        </p>
        <Form method="post" action="/admin/sign-out" className="admin-sign-out">
          <button type="submit" className="button button-secondary">
            Sign out
          </button>
        </Form>
      </div>
      <StaffNav role={role} />
      <StatusBanner role={role} status={status} />
      {children}
    </div>
  );
}

/**
 * The staff navigation: the sections this member may open, in their groups, the current one marked.
 * On a phone it folds into a "Staff menu" disclosure (a `<details>`, so it opens without scripts);
 * on a wide screen the stylesheet shows it open, without the button.
 */
function StaffNav({ role }: { role: StaffRole }) {
  const { pathname } = useLocation();
  const current = sectionOf(pathname);
  return (
    <nav aria-label="Staff pages" className="staff-nav">
      {/* A new element at each address, so a menu opened on a phone is closed on the page it led to. */}
      <details className="staff-menu" key={pathname}>
        <summary>
          Staff menu
          {current ? <span className="staff-menu-current">: {current.label}</span> : null}
        </summary>
        <div className="staff-menu-groups">
          {sectionsFor(role).map((group, index) => (
            <div className="staff-nav-group" key={group.name}>
              <p className="staff-nav-group-name" id={`staff-nav-group-${index}`}>
                {group.name}
              </p>
              <ul aria-labelledby={`staff-nav-group-${index}`}>
                {group.sections.map((section) => (
                  <li key={section.to}>
                    <Link to={section.to} aria-current={section === current ? "page" : undefined}>
                      {section.label}
                    </Link>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </div>
      </details>
    </nav>
  );
}

/** Says, on every staff page, what is not real: e-mail that nobody receives, payments that move no money. */
function StatusBanner({ role, status }: { role: StaffRole; status: StaffSiteStatus }) {
  const lines = [
    ...(status.mail === "folder"
      ? ["E-mail is not set up: messages are written to the outbox folder, nobody receives them."]
      : []),
    ...(status.payments === "demo" ? ["Payments are in demo mode: only test cards are taken, no money moves."] : []),
  ];
  if (lines.length === 0) return null;
  const them = lines.length === 1 ? "it" : "them";
  return (
    <aside className="staff-status" aria-label="What is not real on this site">
      <div className="staff-status-inner">
        {lines.map((line) => (
          <p key={line}>{line}</p>
        ))}
        <p className="staff-status-fix">
          {can(role, "site") ? (
            <Link to="/admin/system#setup">How to set {them} up</Link>
          ) : (
            `An Owner can set ${them} up.`
          )}
        </p>
      </div>
    </aside>
  );
}

/** The tags of every staff page: its title, and never in a search engine. */
export function adminMeta(title: string) {
  return [{ title: `${title} · Staff` }, { name: "robots", content: "noindex, nofollow" }];
}
