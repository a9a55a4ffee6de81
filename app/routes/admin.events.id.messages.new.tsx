import { redirect, useNavigation } from "react-router";
import type { Route } from "./+types/admin.events.id.messages.new";
import { ErrorPage } from "~/components/layout/error-page";
import { MessageForm, type ComposeValues } from "~/features/messages/components/message-form";
import { audiencesOf, previewMessage, sendEventMessage } from "~/features/messages/messages.server";
import { thankYouDraft, type MessageKind } from "~/features/messages/schema";
import { adminMeta } from "~/features/staff/components/admin-shell";
import { Breadcrumbs } from "~/features/staff/components/breadcrumbs";
import { requireStaffPage } from "~/features/staff/staff.server";
import { answerForm, formText, type FormHandler } from "~/infra/http/form-action.server";
import { pageWork } from "~/infra/http/page.server";
import { londonWhen } from "~/lib/london-time";

// /admin/events/:id/messages/new: write to an event's people, or thank those who came
// (?kind=thank-you), preview the e-mail, then send it (docs/decisions/095-messages-to-attendees.md).
export const loader = pageWork(
  "Writing to an event's people",
  async ({ request, context, params }: Route.LoaderArgs) => {
    await requireStaffPage(context.services, request, "events");
    const { event, choices, thankYouOpen } = await audiencesOf(context.services, params.id);
    const kind: MessageKind =
      new URL(request.url).searchParams.get("kind") === "thank-you" && thankYouOpen ? "thank-you" : "message";
    const draft = kind === "thank-you" ? thankYouDraft(event.name) : { subject: "", body: "" };
    return {
      event,
      kind,
      // A thank-you goes only to those who came.
      choices: kind === "thank-you" ? choices.filter((choice) => choice.value === "checked-in") : choices,
      // The message's id, chosen now: a second post of this form finds the message the first recorded.
      form: { messageId: crypto.randomUUID(), audience: kind === "thank-you" ? "checked-in" : "", ...draft },
    };
  },
);

const fields = ["messageId", "audience", "kind", "subject", "body"] as const;
const formOf = (form: FormData) =>
  Object.fromEntries(fields.map((name) => [name, formText(form, name, name === "body" ? 6000 : 200)]));

export const action = pageWork(
  "Sending a message to an event's people",
  async ({ request, context, params }: Route.ActionArgs) => {
    const staff = await requireStaffPage(context.services, request, "events");
    const handlers: Record<"preview" | "edit" | "send", FormHandler<ComposeValues>> = {
      preview: async (form) => {
        const preview = await previewMessage(context.services, params.id, formOf(form));
        return { message: "", values: { form: formOf(form), preview } };
      },
      // Back from the preview to the fields, as they were.
      edit: async (form) => ({ message: "", values: { form: formOf(form) } }),
      send: async (form) => {
        const sent = await sendEventMessage(context.services, staff, params.id, formOf(form));
        return redirect(`/admin/events/${params.id}/messages/${sent.id}?sent=${sent.again ? "again" : "now"}`);
      },
    };
    return answerForm(request, handlers, { values: (form) => ({ form: formOf(form) }) });
  },
);

export const meta: Route.MetaFunction = ({ data }) =>
  adminMeta(
    data
      ? `${data.kind === "thank-you" ? "Thank those who came" : "Write to attendees"}: ${data.event.name}`
      : "Write to attendees",
  );

export default function NewEventMessage({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state !== "idle";
  const { event, kind, choices } = loaderData;
  const title = kind === "thank-you" ? "Thank those who came" : "Write to attendees";
  const values = actionData?.values ?? { form: loaderData.form };
  return (
    <main id="main" className="page narrow">
      <Breadcrumbs via={[{ label: event.name, to: `/admin/events/${event.id}` }]} here={title} />
      <h1>
        {title}: {event.name}
      </h1>
      <p>{londonWhen(event.eventDate)}</p>
      {event.cancelled ? (
        <p className="notice" role="note">
          This event is cancelled. A message still reaches those whose bookings are valid; refunded bookings are not
          written to.
        </p>
      ) : null}
      <MessageForm
        kind={kind}
        choices={choices}
        values={values}
        errors={actionData && !actionData.ok ? actionData.fields : undefined}
        message={actionData && !actionData.ok ? actionData.message : undefined}
        busy={busy}
      />
    </main>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
