import { data } from "react-router";
import type { Route } from "./+types/fundraising-event";
import { ErrorPage } from "~/components/layout/error-page";
import { pageWork } from "~/infra/http/page.server";
import { Gallery } from "~/features/content/components/gallery";
import { Testimonial } from "~/features/content/components/testimonial";
import { EventAction, EventFacts, EventPoster } from "~/features/events/components/event-card";
import { LiveFeedAlert } from "~/features/events/components/live-feed-alert";
import { useLiveAvailability } from "~/features/events/components/use-live-availability";
import { eventForVisitors } from "~/features/events/events.server";
import { WaitingListForm } from "~/features/booking/components/waiting-list-form";
import { cancelledMessage, isCurrent, offersCalendar, testEventNotice } from "~/features/events/status";
import { pageMeta, summary } from "~/lib/page-meta";

export const loader = pageWork("An event page", async ({ context, params }: Route.LoaderArgs) => {
  const { clock } = context.services;
  const now = clock.now();
  const found = await eventForVisitors(context.services, params.id, now);
  if (!found) throw data(null, { status: 404 });
  const { event, availability } = found;
  return {
    event,
    current: isCurrent(event, now),
    addToCalendar: offersCalendar(event, now),
    testNotice: event.isTest ? testEventNotice(context.services.payments.name === "stripe", "event") : null,
    availability: { [event.id]: availability },
  };
});

// Rendered once per change and kept (server/page-cache.ts): this page shows events and their live counts: kept until the next sale, hold or event change, and at most a second.
export const handle = { publicCache: "live" as const };

export const meta: Route.MetaFunction = ({ data, matches }) =>
  data
    ? [
        ...pageMeta(data.event.name, summary(data.event.description), {
          site: matches[0].loaderData?.share,
          path: `/fundraising-event/${data.event.id}`,
          image: data.event.posterImage ? { src: data.event.posterImage, alt: `Poster for ${data.event.name}` } : null,
        }),
        ...(data.event.isTest ? [{ name: "robots", content: "noindex, nofollow" }] : []),
      ]
    : [];

export default function FundraisingEvent({ loaderData }: Route.ComponentProps) {
  const { event, current, addToCalendar } = loaderData;
  const live = useLiveAvailability(loaderData.availability);
  const availability = live.availability[event.id];
  return (
    <main id="main" className="page event-page">
      <header className="page-header">
        <EventPoster
          event={event}
          sizes="(min-width: 70rem) 70rem, 100vw"
          width={1600}
          height={1000}
          className="page-header-image event-poster"
          priority
        />
        <h1>{event.name}</h1>
      </header>
      {loaderData.testNotice ? (
        <p className="notice" role="note">
          {loaderData.testNotice}
        </p>
      ) : null}
      <EventFacts event={event} withTime types={availability?.types} />
      <p className="lead">{event.description}</p>
      <EventAction
        event={event}
        availability={availability}
        current={current}
        soldOut={availability?.soldOut ?? false}
      />
      {/* When the event or a type is sold out, the waiting list (decision 086). */}
      {current &&
      !event.cancelledAt &&
      event.ticketCostPence !== null &&
      availability &&
      (availability.soldOut ||
        availability.remaining <= 0 ||
        availability.types?.some((type) => type.status === "sold-out" || type.status === "reserved")) ? (
        <WaitingListForm eventId={event.id} types={availability.types?.map(({ id, name }) => ({ id, name }))} />
      ) : null}
      {event.cancelledAt ? (
        <p className="notice" role="note">
          {cancelledMessage} Everyone who booked gets their money back.
        </p>
      ) : !current ? (
        <p>Ticket sales for this event have closed.</p>
      ) : null}
      {addToCalendar ? (
        <p>
          <a className="calendar-link" href={`/fundraising-event/${event.id}/calendar.ics`} download>
            Add to calendar
          </a>
        </p>
      ) : null}
      {event.link && event.ticketCostPence !== null ? (
        <p>
          <a href={event.link} rel="noopener noreferrer">
            More about this event
          </a>
        </p>
      ) : null}
      {event.testimonial ? (
        <Testimonial
          heading="Review"
          testimonial={{
            name: event.testimonial.name,
            job: event.testimonial.job,
            testimonial: event.testimonial.testimonial,
            image: event.testimonial.image
              ? { src: event.testimonial.image, alt: `Photo of ${event.testimonial.name}` }
              : undefined,
          }}
        />
      ) : null}
      <Gallery
        images={event.galleryImages.map((item) => ({
          image: { src: item.image, alt: "" },
          description: item.description,
        }))}
      />
      <LiveFeedAlert error={live.error} onClose={live.dismissError} />
    </main>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
