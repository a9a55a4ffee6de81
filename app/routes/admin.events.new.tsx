import { redirect } from "react-router";
import type { Route } from "./+types/admin.events.new";
import { ErrorPage } from "~/components/layout/error-page";
import { EventForm } from "~/features/events/components/event-form";
import { emptyEventForm, eventFormFromPost } from "~/features/events/event-form";
import {
  addQuestionRow,
  addTicketTypeRow,
  eventFormRefused,
  saveEventForm,
  type EventPageValues,
} from "~/features/events/event-form.server";
import { adminMeta } from "~/features/staff/components/admin-shell";
import { Breadcrumbs } from "~/features/staff/components/breadcrumbs";
import { requireStaffPage } from "~/features/staff/staff.server";
import { answerForm, type FormReply } from "~/infra/http/form-action.server";
import { pageWork } from "~/infra/http/page.server";

// /admin/events/new: a new event with its pictures, checked by the staff API's own schema and rules.
export const loader = pageWork("The new event page", async ({ request, context }: Route.LoaderArgs) => {
  await requireStaffPage(context.services, request, "events");
  return { values: emptyEventForm, now: context.services.clock.now().toISOString() };
});

export const action = pageWork("Creating an event", async ({ request, context }: Route.ActionArgs) => {
  const staff = await requireStaffPage(context.services, request, "events");
  return answerForm(
    request,
    {
      save: async (form): Promise<FormReply<EventPageValues> | Response> => {
        const result = await saveEventForm(form, "new", context.services, staff);
        if ("event" in result) return redirect(`/admin/events/${result.event.id}?saved=created`);
        return eventFormRefused(result);
      },
      // Add a ticket type, without JavaScript: the form again with one more type, nothing saved.
      "add-type": async (form): Promise<FormReply<EventPageValues>> => {
        const { values, errors, focus } = await addTicketTypeRow(form, context.services, staff);
        return { message: "", values: { event: values }, fields: errors, focus };
      },
      // Add a question, without JavaScript: the form again with one more question, nothing saved.
      "add-question": async (form): Promise<FormReply<EventPageValues>> => {
        const { values, errors, focus } = await addQuestionRow(form, context.services, staff);
        return { message: "", values: { event: values }, fields: errors, focus };
      },
    },
    { values: (form) => ({ event: eventFormFromPost(form) }) },
  );
});

export const meta: Route.MetaFunction = () => adminMeta("New event");

export default function NewEvent({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <main id="main" className="page narrow">
      <Breadcrumbs here="New event" />
      <h1>New event</h1>
      <EventForm
        values={actionData?.values?.event ?? loaderData.values}
        errors={actionData?.fields}
        focus={actionData?.focus}
        submitLabel="Create event"
        now={loaderData.now}
      />
    </main>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
