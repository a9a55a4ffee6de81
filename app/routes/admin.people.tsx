import type { Route } from "./+types/admin.people";
import { ErrorPage } from "~/components/layout/error-page";
import { FormNotice } from "~/components/ui/form-notice";
import { useQuery } from "~/components/ui/use-query";
import {
  EraseButton,
  PersonRecords,
  PersonSearch,
  type PersonDataPages,
} from "~/features/people/components/person-data";
import { erasePersonData, erasureSummary, findPersonData } from "~/features/people/people.server";
import { holdsAnything, personMessages, recordCounts, validatePersonLookup } from "~/features/people/schema";
import { adminMeta } from "~/features/staff/components/admin-shell";
import { requireStaffPage } from "~/features/staff/staff.server";
import { answerForm, formText } from "~/infra/http/form-action.server";
import { pageWork } from "~/infra/http/page.server";
import { AppError } from "~/lib/errors";
import { requestedPage, slicePage } from "~/lib/pagination";

// /admin/people: a person's data by e-mail address (subject access): everything held, the JSON
// download, and erasure on request, asked about first (docs/decisions/018-a-persons-data.md).
export const loader = pageWork("A person's data", async ({ request, context }: Route.LoaderArgs) => {
  await requireStaffPage(context.services, request, "people");
  const search = new URL(request.url).searchParams;
  const typed = search.get("email");
  if (typed === null) return { typed: "", error: undefined, found: undefined };
  const lookup = validatePersonLookup({ email: typed });
  if (!lookup.ok) return { typed, error: personMessages.email, found: undefined };
  const held = await findPersonData(context.services, lookup.data.email);
  const page = <T,>(rows: T[], param: string) => slicePage(rows, requestedPage(search.get(param)));
  const found: PersonDataPages & { counts: string; anything: boolean } = {
    emailAddress: held.emailAddress,
    counts: recordCounts(held),
    anything: holdsAnything(held),
    bookings: page(held.bookings, "bookings"),
    tickets: page(held.tickets, "tickets"),
    donations: page(held.donations, "donations"),
    regularGifts: page(held.regularGifts, "regularGifts"),
    giftAidDeclarations: page(held.giftAidDeclarations, "giftAidDeclarations"),
    volunteerSignUps: page(held.volunteerSignUps, "volunteerSignUps"),
    emailsSent: page(held.emailsSent, "emailsSent"),
    refunds: page(held.refunds, "refunds"),
  };
  return { typed, error: undefined, found };
});

export const action = pageWork("Erasing a person's data", async ({ request, context }: Route.ActionArgs) => {
  const staff = await requireStaffPage(context.services, request, "people");
  return answerForm(request, {
    erase: async (form) => {
      const lookup = validatePersonLookup({ email: formText(form, "email", 1000) });
      if (!lookup.ok) throw new AppError("invalid", personMessages.email);
      const { email } = lookup.data;
      const counts = await erasePersonData(context.services, staff, email, context.services.clock.now());
      if (!counts) throw new AppError("not-found", `Nothing is held for ${email.toLowerCase()}.`);
      return { message: `Their data is erased: ${erasureSummary(counts)}` };
    },
  });
});

export const meta: Route.MetaFunction = () => adminMeta("A person's data");

export default function AdminPeople({ loaderData: { typed, error, found }, actionData }: Route.ComponentProps) {
  const search = useQuery();
  return (
    <main id="main" className="page">
      <h1>A person's data</h1>
      <p>
        Find everything the site holds about someone by their e-mail address, download it for them (a subject access
        request), or erase it when they ask.
      </p>
      {actionData ? <FormNotice ok={actionData.ok}>{actionData.message}</FormNotice> : null}
      <PersonSearch key={typed} email={typed} error={error} />
      {found ? (
        <section className="section" aria-labelledby="held-heading">
          <h2 id="held-heading">Held for {found.emailAddress}</h2>
          {found.anything ? (
            <>
              <p>{capitalise(found.counts)}.</p>
              <div className="person-actions">
                <a
                  href={`/admin/people/export?${new URLSearchParams({ email: found.emailAddress })}`}
                  className="button button-secondary"
                  download
                >
                  Download their data
                </a>
                <EraseButton email={found.emailAddress} />
              </div>
              <PersonRecords data={found} search={search} />
            </>
          ) : (
            <p>Nothing is held for {found.emailAddress}.</p>
          )}
        </section>
      ) : null}
    </main>
  );
}

function capitalise(text: string) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
