import type { Route } from "./+types/admin.emails.id.html";
import { emailPreview } from "~/features/emails/emails.server";
import { requireStaffResource } from "~/features/staff/staff.server";
import { pageWork } from "~/infra/http/page.server";

// GET /admin/emails/<id>/html: an e-mail's html as its own document, for staff to see it as a mail
// program would. The CSP sandbox gives it no scripts, no forms and an origin of its own, so an
// e-mail's content can never act on the staff area.
export const loader = pageWork("An e-mail's html", async ({ request, params, context }: Route.LoaderArgs) => {
  await requireStaffResource(context.services, request, "site");
  const email = await emailPreview(context.services, params.emailId);
  return new Response(email.html || "<p>This e-mail has no html version.</p>", {
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Content-Security-Policy": "sandbox; default-src 'none'; img-src data:",
      "Cache-Control": "private, no-store",
      "X-Robots-Tag": "noindex, nofollow",
    },
  });
});
