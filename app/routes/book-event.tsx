import { data } from "react-router";
import type { Route } from "./+types/book-event";
import { ErrorPage } from "~/components/layout/error-page";
import { pageWork } from "~/infra/http/page.server";
import { BookingClosed, BookingForm } from "~/features/booking/components/booking-form";
import { OfferPayment } from "~/features/booking/components/offer-payment";
import { offerForPage } from "~/features/booking/waiting-list.server";
import { waitingListMessages } from "~/features/booking/waiting-list";
import { EventFacts } from "~/features/events/components/event-card";
import { LiveFeedAlert } from "~/features/events/components/live-feed-alert";
import { useLiveAvailability } from "~/features/events/components/use-live-availability";
import { eventForVisitors } from "~/features/events/events.server";
import { promoForPage } from "~/features/booking/promo-codes.server";
import { availabilityReason, bookingClosedReason, typeWords } from "~/features/events/status";
import { pageMeta, summary } from "~/lib/page-meta";
import { questionsToAsk } from "~/infra/db/questions.server";

export const loader = pageWork("The booking page", async ({ request, context, params }: Route.LoaderArgs) => {
  const { payments, clock } = context.services;
  const now = clock.now();
  const found = await eventForVisitors(context.services, params.id, now);
  if (!found) throw data(null, { status: 404 });
  const { event, availability } = found;
  // Closed for good (cancelled, sales over, not sold here); the seat counts are judged live, below.
  const closed = bookingClosedReason(event, undefined, now);
  // `?code=`: a promo code applied, the hidden types it reveals, or why it cannot be (decision 084).
  const { types: revealed, ...promo } = await promoForPage(
    context.services.db,
    event.id,
    new URL(request.url).searchParams.get("code"),
    now,
  ).then(({ applied, ...rest }) => ({ ...rest, applied, types: applied?.types ?? null }));
  // A waiting-list offer's link (`?offer=`): the offer's own tickets to pay for (decision 086).
  const offerToken = (new URL(request.url).searchParams.get("offer") ?? "").slice(0, 100);
  const offer = offerToken ? await offerForPage(context.services.db, offerToken, now) : null;
  // Only the publishable key reaches the browser; the secret key never leaves the server.
  return {
    event,
    closed,
    // The event's questions, asked on the form (decision 083).
    questions: await questionsToAsk(context.services.db, event.id),
    availability: { [event.id]: availability },
    offer: offerToken
      ? { token: offer?.eventId === event.id ? offerToken : "", shown: offer?.eventId === event.id ? offer : null }
      : null,
    provider: payments.name,
    publishableKey: payments.publishableKey,
    promo,
    revealed,
    charityName: context.services.charity.name,
  };
});

// The booking page has an address of its own (PRODUCT.md: a reload, a shared link or a search
// engine gets the same page), so it describes itself like the event's page; a test event's
// pages stay out of search engines.
export const meta: Route.MetaFunction = ({ data, matches }) =>
  data
    ? [
        ...pageMeta(`Book ${data.event.name}`, summary(data.event.description), {
          site: matches[0].loaderData?.share,
          path: `/book-event/${data.event.id}`,
          image: data.event.posterImage ? { src: data.event.posterImage, alt: `Poster for ${data.event.name}` } : null,
        }),
        ...(data.event.isTest ? [{ name: "robots", content: "noindex, nofollow" }] : []),
      ]
    : [];

export default function BookEvent({ loaderData }: Route.ComponentProps) {
  const { event, closed, provider, publishableKey } = loaderData;
  const live = useLiveAvailability(loaderData.availability);
  const availability = live.availability[event.id];
  return (
    <main id="main" className="page">
      <h1>Book {event.name}</h1>
      <EventFacts event={event} withTime types={availability?.types} />
      {loaderData.offer ? (
        loaderData.offer.shown && event.ticketCostPence !== null ? (
          <OfferPayment
            event={{
              id: event.id,
              name: event.name,
              eventDate: event.eventDate,
              location: event.location,
              ticketCostPence: event.ticketCostPence,
            }}
            offer={loaderData.offer.shown}
            token={loaderData.offer.token}
            questions={loaderData.questions}
            provider={provider}
            publishableKey={publishableKey}
          />
        ) : (
          <BookingClosed reason={waitingListMessages.offerGone} eventId={event.id} />
        )
      ) : closed || event.ticketCostPence === null ? (
        <BookingClosed reason={closed} eventId={event.id} />
      ) : (
        <BookingForm
          event={{
            id: event.id,
            name: event.name,
            eventDate: event.eventDate,
            location: event.location,
            ticketCostPence: event.ticketCostPence,
            questions: loaderData.questions,
          }}
          types={
            loaderData.revealed ??
            availability?.types?.map((type) => ({
              id: type.id,
              name: type.name,
              pricePence: type.pricePence,
              onSale: type.status === "on-sale",
              left: type.left,
              words: typeWords(type),
            }))
          }
          remaining={availability?.remaining ?? 0}
          // The live counts can close the sale (sold out, or every seat left reserved) and open it again.
          unavailable={availabilityReason(availability)}
          provider={provider}
          publishableKey={publishableKey}
          promo={loaderData.promo}
          charityName={loaderData.charityName}
        />
      )}
      <LiveFeedAlert error={live.error} onClose={live.dismissError} />
    </main>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
