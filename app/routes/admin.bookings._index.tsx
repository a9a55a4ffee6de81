import { Form, Link, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/admin.bookings._index";
import { ErrorPage } from "~/components/layout/error-page";
import { Field } from "~/components/ui/field";
import { BusyButton } from "~/components/ui/spinner";
import { findBooking } from "~/features/booking/staff-bookings.server";
import { adminMeta } from "~/features/staff/components/admin-shell";
import { requireStaffPage } from "~/features/staff/staff.server";
import { pageWork } from "~/infra/http/page.server";

// /admin/bookings: "Find a booking" by its full reference or the short code on the receipt.
export const loader = pageWork("The find a booking page", async ({ request, context }: Route.LoaderArgs) => {
  await requireStaffPage(context.services, request, "bookings");
  const typed = (new URL(request.url).searchParams.get("ref") ?? "").slice(0, 200);
  if (!typed.trim()) return { typed, search: null };
  const search = await findBooking(context.services, typed);
  if (search.outcome === "found") throw redirect(`/admin/bookings/${search.bookingRef}`);
  return { typed, search };
});

export const meta: Route.MetaFunction = () => adminMeta("Find a booking");

export default function FindBooking({ loaderData: { typed, search } }: Route.ComponentProps) {
  const navigation = useNavigation();
  const finding = navigation.state === "loading" && navigation.location.pathname.startsWith("/admin/bookings");
  const problem = search?.outcome === "none" ? search.message : null;
  return (
    <main id="main" className="page narrow">
      <h1>Find a booking</h1>
      <Form method="get" className="form find-booking" role="search">
        <Field
          id="booking-ref"
          label="Booking reference"
          hint="The full reference, or the 8-character booking code printed on the receipt (such as 3F9A-1C2B)."
          input={{ name: "ref", type: "search", defaultValue: typed, autoComplete: "off", spellCheck: false }}
          error={problem}
          announce
        />
        <BusyButton busy={finding} busyLabel="Finding…">
          Find
        </BusyButton>
      </Form>
      {search?.outcome === "several" ? (
        <section className="section" aria-labelledby="matches-title">
          <h2 id="matches-title">Bookings with the code {typed.trim()}</h2>
          <ul>
            {search.matches.map((match) => (
              <li key={match.bookingRef}>
                <Link to={`/admin/bookings/${match.bookingRef}`}>
                  {match.code} ({match.bookingRef})
                </Link>{" "}
                {match.eventName}, {match.status}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <p>
        An event&apos;s bookings are also listed on its page: <Link to="/admin/events">Events</Link>.
      </p>
    </main>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
