import type { Route } from "./+types/admin.people-export";
import { exportPersonData } from "~/features/people/people.server";
import { personMessages, validatePersonLookup } from "~/features/people/schema";
import { requireStaffResource } from "~/features/staff/staff.server";
import { pageWork } from "~/infra/http/page.server";
import { londonDay } from "~/lib/london-time";

// GET /admin/people/export?email=: the subject access export as a JSON file ("Download their
// data"); the download is in the audit log, by a hash of the address.
export const loader = pageWork("Downloading a person's data", async ({ request, context }: Route.LoaderArgs) => {
  const staff = await requireStaffResource(context.services, request, "people");
  const lookup = validatePersonLookup({ email: new URL(request.url).searchParams.get("email") ?? "" });
  if (!lookup.ok) throw new Response(personMessages.email, { status: 400 });
  const { clock } = context.services;
  const now = clock.now();
  const { site } = await context.services.content();
  const exported = await exportPersonData(context.services, staff, lookup.data.email, now, site.charityName);
  return new Response(`${JSON.stringify(exported, null, 2)}\n`, {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="personal-data-${londonDay(now)}.json"`,
      "Cache-Control": "private, no-store",
      "X-Robots-Tag": "noindex, nofollow",
    },
  });
});
