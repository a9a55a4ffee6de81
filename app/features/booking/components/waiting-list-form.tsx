import { Form } from "react-router";
import { Field } from "~/components/ui/field";
import { FormNotice } from "~/components/ui/form-notice";
import type { FormResult } from "~/lib/forms";
import { maxTickets, minTickets } from "../pricing";
import { bookingLimits } from "../schema";
import { anyType, waitingListLabels } from "../waiting-list";

/**
 * `Join the waiting list` for a sold-out event or type. A plain form that posts to the event's
 * waiting-list page, so it works without JavaScript; the page answers with the confirmation or
 * what to correct (`result`).
 */
export function WaitingListForm({
  eventId,
  types,
  result,
}: {
  eventId: string;
  /** The event's types a visitor may choose between (none for an event of one type). */
  types?: { id: string; name: string }[];
  result?: FormResult;
}) {
  const values = result && !result.ok ? (result.values ?? {}) : {};
  const errors = result && !result.ok ? (result.fields ?? {}) : {};
  return (
    <section className="section narrow waiting-list" aria-labelledby="waiting-list-heading">
      <h2 id="waiting-list-heading">{waitingListLabels.heading}</h2>
      {result?.ok ? (
        <FormNotice ok>{result.message}</FormNotice>
      ) : (
        <>
          <p>
            Tell us how many tickets you want. If tickets come back (a refund, a cancelled booking), the first person on
            the list whose request fits is e-mailed an offer that holds them for a while.
          </p>
          {result && !result.ok ? <FormNotice ok={false}>{result.message}</FormNotice> : null}
          <Form method="post" action={`/fundraising-event/${eventId}/waiting-list`} className="form" noValidate>
            <Field
              id="waiting-list-name"
              label={waitingListLabels.name}
              input={{
                name: "name",
                autoComplete: "name",
                defaultValue: values.name ?? "",
                maxLength: bookingLimits.name,
                required: true,
              }}
              error={errors.name}
            />
            <Field
              id="waiting-list-email"
              label={waitingListLabels.email}
              input={{
                name: "email",
                type: "email",
                autoComplete: "email",
                defaultValue: values.email ?? "",
                maxLength: bookingLimits.email,
                required: true,
              }}
              error={errors.email}
            />
            <Field
              id="waiting-list-tickets"
              label={waitingListLabels.tickets}
              hint={`${minTickets} to ${maxTickets}`}
              input={{
                name: "tickets",
                inputMode: "numeric",
                defaultValue: values.tickets ?? "1",
                maxLength: 3,
                required: true,
              }}
              error={errors.tickets}
            />
            {types && types.length > 1 ? (
              <Field
                id="waiting-list-type"
                label={waitingListLabels.type}
                select={{ name: "ticketTypeId", defaultValue: values.ticketTypeId ?? anyType }}
                error={errors.ticketTypeId}
              >
                <option value={anyType}>{waitingListLabels.anyType}</option>
                {types.map((type) => (
                  <option key={type.id} value={type.id}>
                    {type.name}
                  </option>
                ))}
              </Field>
            ) : null}
            {/* Robots fill every field; people never see this one. */}
            <div className="honeypot" aria-hidden="true">
              <label>
                Leave this field empty
                <input type="text" name="website" tabIndex={-1} autoComplete="off" defaultValue="" />
              </label>
            </div>
            <button type="submit" className="button">
              {waitingListLabels.submit}
            </button>
          </Form>
        </>
      )}
    </section>
  );
}
