import type { ReactNode } from "react";
import { Form, Link } from "react-router";

/**
 * The frame of every staff page: says who is signed in, and offers Sign out. The pages inside keep
 * the site's own navigation above, so staff can look at the public pages as visitors see them.
 */
export function AdminShell({ email, children }: { email: string; children: ReactNode }) {
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
      {children}
    </div>
  );
}

/** The tags of every staff page: its title, and never in a search engine. */
export function adminMeta(title: string) {
  return [{ title: `${title} · Staff` }, { name: "robots", content: "noindex, nofollow" }];
}
