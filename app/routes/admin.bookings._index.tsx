import { Form, Link, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/admin.bookings._index";
import { ErrorPage } from "~/components/layout/error-page";
import { Field } from "~/components/ui/field";
import { BusyButton } from "~/components/ui/spinner";
import { BookingMatches } from "~/features/booking/components/booking-matches";
import { findBooking } from "~/features/booking/staff-bookings.server";
import { adminMeta } from "~/features/staff/components/admin-shell";
import { requireStaffPage } from "~/features/staff/staff.server";
import { pageWork } from "~/infra/http/page.server";

// /admin/bookings: "Find a booking" by the buyer's name or e-mail, the receipt's code or the full
// reference (decision 077). `?ref=` is the older name of `?q=`, kept for links already made.
export const loader = pageWork("The find a booking page", async ({ request, context }: Route.LoaderArgs) => {
  await requireStaffPage(context.services, request, "bookings");
  const search = new URL(request.url).searchParams;
  const typed = (search.get("q") ?? search.get("ref") ?? "").slice(0, 200);
  if (!typed.trim()) return { typed, search: null };
  const found = await findBooking(context.services, typed);
  if (found.outcome === "found") throw redirect(`/admin/bookings/${found.bookingRef}`);
  return { typed, search: found };
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
          id="booking-search"
          label="Name, e-mail or booking code"
          hint="Part of the buyer's name (such as Okafor), the start of their e-mail address, or the 8-character code on the receipt (such as 3F9A-1C2B). Accents and capitals do not matter."
          input={{ name: "q", type: "search", defaultValue: typed, autoComplete: "off", spellCheck: false }}
          error={problem}
          announce
        />
        <BusyButton busy={finding} busyLabel="Finding…">
          Find
        </BusyButton>
      </Form>
      {search?.outcome === "several" ? (
        <BookingMatches typed={typed.trim()} by={search.by} matches={search.matches} more={search.more} />
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
