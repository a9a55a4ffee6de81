import type { Route } from "./+types/fundraising-event.calendar";
import { eventCalendar } from "~/features/events/calendar.server";
import { findEvent } from "~/features/events/events.server";
import { allowMethods, apiRoute } from "~/infra/http/api.server";
import { publicOrigin } from "~/infra/http/public-origin.server";
import { AppError } from "~/lib/errors";

// GET /fundraising-event/<id>/calendar.ics: the event as a calendar file, for "Add to calendar".
export const loader = ({ request, context, params }: Route.LoaderArgs) =>
  apiRoute("An event's calendar file", async () => {
    allowMethods(request, "GET", "HEAD");
    const { clock, config } = context.services;
    const event = await findEvent(context.services, params.id);
    const { site } = await context.services.content();
    const calendar = event
      ? eventCalendar(event, {
          origin: publicOrigin(config, request),
          charity: { name: site.charityName, email: site.email },
          now: clock.now(),
        })
      : undefined;
    if (!calendar) throw new AppError("not-found", "There is no such event.");
    return new Response(calendar.text, {
      headers: {
        "Content-Type": "text/calendar; charset=utf-8",
        "Content-Disposition": `attachment; filename="${calendar.fileName}"`,
        "Cache-Control": "no-cache",
      },
    });
  });
