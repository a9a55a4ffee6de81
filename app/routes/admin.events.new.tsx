import { data, redirect } from "react-router";
import type { Route } from "./+types/admin.events.new";
import { ErrorPage } from "~/components/layout/error-page";
import { EventForm } from "~/features/events/components/event-form";
import { emptyEventForm, eventFormFromPost, eventInputFromForm } from "~/features/events/event-form";
import { createEvent } from "~/features/events/events.server";
import { newEventSchema } from "~/features/events/schema";
import { adminMeta } from "~/features/staff/components/admin-shell";
import { requireStaffPage } from "~/features/staff/staff.server";
import { requireSameOrigin } from "~/infra/http/api.server";
import { pageWork } from "~/infra/http/page.server";
import { announceChange } from "~/infra/live/changes.server";
import { AppError } from "~/lib/errors";
import { fieldErrors } from "~/lib/forms";

// /admin/events/new: a new event, checked by the staff API's own schema.
export const loader = pageWork("The new event page", async ({ request, context }: Route.LoaderArgs) => {
  await requireStaffPage(context.services, request);
  return { values: emptyEventForm };
});

export const action = pageWork("Creating an event", async ({ request, context }: Route.ActionArgs) => {
  requireSameOrigin(request, context.services.config.publicUrl);
  await requireStaffPage(context.services, request);
  const values = eventFormFromPost(await request.formData());
  const { input, errors } = eventInputFromForm(values);
  const parsed = newEventSchema.safeParse(input);
  const problems = { ...(parsed.success ? {} : fieldErrors(parsed.error)), ...errors };
  if (!parsed.success || Object.keys(problems).length > 0) return data({ values, errors: problems }, { status: 400 });
  const { db, clock, pictures } = context.services;
  try {
    const event = await db.transaction(async (tx) => {
      const created = await createEvent(tx, parsed.data, clock.now(), pictures);
      await announceChange(tx, "events");
      return created;
    });
    return redirect(`/admin/events/${event.id}?saved=created`);
  } catch (error) {
    if (!(error instanceof AppError && error.code === "invalid" && error.fields)) throw error;
    return data({ values, errors: error.fields }, { status: 400 });
  }
});

export const meta: Route.MetaFunction = () => adminMeta("New event");

export default function NewEvent({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <main id="main" className="page narrow">
      <h1>New event</h1>
      <EventForm
        values={actionData?.values ?? loaderData.values}
        errors={actionData?.errors}
        submitLabel="Create event"
      />
    </main>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
