import { Suspense, use, useEffect, useState } from "react";
import { Link, useNavigation } from "react-router";
import type { Route } from "./+types/confirmation";
import { AlertDialog } from "~/components/ui/alert-dialog";
import { Spinner } from "~/components/ui/spinner";
import { bookingReturn, type ConfirmedDetails } from "~/features/booking/confirmation.server";
import { PriceRows } from "~/features/booking/components/booking-summary";
import { logUnexpected } from "~/infra/http/api.server";
import { shortCode } from "~/lib/booking-code";
import { londonDate, londonTime } from "~/lib/london-time";
import { formatPounds } from "~/lib/money";

/** The query parameters of /confirmation that must be present (docs/specification.md, section 4). */
const required = ["eventId", "eventName", "eventLoaction", "eventDate", "userName", "userEmail", "bookingRef"] as const;

// The page the payment provider returns to. It trusts nothing in the URL but the booking
// reference: the payment's state comes from the provider, the details from our database.
export async function loader({ request, context }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  const { site } = await context.services.content();
  const missing = required.filter((name) => !params.get(name));
  // Not awaited: the spinner shows until the outcome is known, on in-app navigations and on the
  // provider's redirect alike (this page is streamed: see `handle`).
  return { result: verify(missing.length > 0 ? undefined : params.get("bookingRef")!, context, site.email) };
}

async function verify(bookingRef: string | undefined, context: Route.LoaderArgs["context"], email: string) {
  if (!bookingRef) return { kind: "missing" as const, email };
  try {
    return { ...(await bookingReturn(context.services, bookingRef)), email };
  } catch (error) {
    // The specification's alert, with a reference in place of the error's own text.
    const ref = logUnexpected(error, "Confirming a booking");
    return { kind: "error" as const, message: `we could not check your payment just now (reference ${ref})`, email };
  }
}

// Streamed, so the provider's full-page redirect shows the spinner at once (app/entry.server.tsx).
export const handle = { streamed: true };

export const meta: Route.MetaFunction = () => [
  { title: "Booking confirmation" },
  { name: "robots", content: "noindex" },
];

type Outcome = Awaited<ReturnType<typeof verify>>;

export default function Confirmation({ loaderData }: Route.ComponentProps) {
  const navigation = useNavigation();
  return (
    <main id="main" className="page narrow">
      <h1>Booking confirmation</h1>
      {navigation.state === "loading" ? (
        <Spinner />
      ) : (
        <Suspense fallback={<Spinner />}>
          <Verified outcome={loaderData.result} />
        </Suspense>
      )}
      <p>
        <Link to="/fundraising">Back to fundraising events</Link>
      </p>
    </main>
  );
}

// React's own `use`, not React Router's `Await`: the same wait, without `Await`'s code in the script
// every page loads (docs/performance.md, "First visit to /"). `verify` never rejects.
function Verified({ outcome }: { outcome: Promise<Outcome> }) {
  return <ConfirmationOutcome loaderData={use(outcome)} />;
}

function ConfirmationOutcome({ loaderData }: { loaderData: Outcome }) {
  const [alert, setAlert] = useState<string | null>(null);
  useEffect(() => {
    if (loaderData.kind === "error") {
      setAlert(
        `An unexpected error occured: ${loaderData.message}. Please contact us via our email ${loaderData.email} for support and we will assist you.`,
      );
    } else if (loaderData.kind === "paid" && loaderData.receiptError) {
      setAlert(
        `Failed to send email receipt: ${loaderData.receiptError}. Please make note of your booking reference upon arrival: ${loaderData.details.bookingRef}`,
      );
    }
  }, [loaderData]);

  return (
    <>
      {loaderData.kind === "missing" ? (
        <p>
          This link is missing the booking details, so there is nothing to confirm. If you have paid, please check your
          e-mail for the receipt or contact us at <a href={`mailto:${loaderData.email}`}>{loaderData.email}</a>.
        </p>
      ) : loaderData.kind === "unknown" ? (
        <p>
          We could not find a booking with this reference. If you have paid, please contact us at{" "}
          <a href={`mailto:${loaderData.email}`}>{loaderData.email}</a>.
        </p>
      ) : loaderData.kind === "error" ? (
        <p>We could not confirm your booking just now.</p>
      ) : loaderData.kind === "refunded" ? (
        <p className="notice">
          Sorry: your payment arrived after your seats were released and the event is now full.{" "}
          {loaderData.pending
            ? `We are refunding ${formatPounds(loaderData.details.totalPence)} in full, and will e-mail you when it is done.`
            : `We have refunded ${formatPounds(loaderData.details.totalPence)} in full and sent you an e-mail.`}{" "}
          Booking reference {loaderData.details.bookingRef} (code {shortCode(loaderData.details.bookingRef)}).
        </p>
      ) : (
        <>
          {loaderData.status ? <p className="confirmation-status">{loaderData.status}</p> : null}
          <BookingDetails details={loaderData.details} paid={loaderData.kind === "paid"} />
        </>
      )}
      <AlertDialog
        open={alert !== null}
        title="Something went wrong"
        message={alert ?? ""}
        onClose={() => setAlert(null)}
      />
    </>
  );
}

function BookingDetails({ details, paid }: { details: ConfirmedDetails; paid: boolean }) {
  return (
    <section className="booking-overview" aria-label="Your booking">
      {paid ? (
        <p>
          Thank you, {details.name}. Your booking for <strong>{details.eventName}</strong> is confirmed and a receipt is
          on its way to you by e-mail.
        </p>
      ) : null}
      <dl>
        <dt>Booking code</dt>
        <dd className="booking-code">{shortCode(details.bookingRef)}</dd>
        <dt>Booking reference</dt>
        <dd className="booking-ref">{details.bookingRef}</dd>
        <dt>Event</dt>
        <dd>{details.eventName}</dd>
        {details.eventDate ? (
          <>
            <dt>Date</dt>
            <dd>
              {londonDate(details.eventDate)} at {londonTime(details.eventDate)}
            </dd>
          </>
        ) : null}
        {details.location ? (
          <>
            <dt>Location</dt>
            <dd>{details.location}</dd>
          </>
        ) : null}
        {details.lines ? (
          <PriceRows lines={details.lines} totalPence={details.totalPence} giftPence={details.giftPence} />
        ) : (
          <PriceRows
            ticketCostPence={details.ticketCostPence}
            quantity={details.quantity}
            totalPence={details.totalPence}
            giftPence={details.giftPence}
          />
        )}
      </dl>
    </section>
  );
}
