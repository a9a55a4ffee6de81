import { Form, useNavigation } from "react-router";
import type { FieldErrors } from "~/lib/errors";
import { eventFormLabels, type EventFormField, type EventFormValues } from "../event-form";

/**
 * The staff event form: every field of the staff API, each with its message beside it. It posts to
 * its own page; nothing is saved unless every field is right.
 */
export function EventForm({
  values,
  errors = {},
  submitLabel,
}: {
  values: EventFormValues;
  errors?: FieldErrors;
  submitLabel: string;
}) {
  const navigation = useNavigation();
  const saving = navigation.state === "submitting";
  const hasErrors = Object.keys(errors).length > 0;

  function field(
    name: Exclude<EventFormField, "isTest">,
    input: (props: InputProps) => React.ReactNode,
    hint?: string,
  ) {
    const id = `event-${name}`;
    const error = errors[name];
    const describedBy = [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined;
    return (
      <div className="field">
        <label htmlFor={id}>{eventFormLabels[name]}</label>
        {hint ? (
          <p id={`${id}-hint`} className="field-hint">
            {hint}
          </p>
        ) : null}
        {input({
          id,
          name,
          defaultValue: values[name],
          "aria-invalid": error ? true : undefined,
          "aria-describedby": describedBy,
        })}
        {error ? (
          <p id={`${id}-error`} className="field-error">
            {eventFormLabels[name]} {error.replace("eventDate", "the event date")}.
          </p>
        ) : null}
      </div>
    );
  }

  return (
    <Form method="post" className="form event-form" noValidate>
      {hasErrors ? (
        <p className="form-summary" role="alert">
          Nothing was saved: please correct the fields marked below.
        </p>
      ) : null}
      {field("name", (props) => (
        <input {...props} type="text" maxLength={120} required />
      ))}
      {field("description", (props) => (
        <textarea {...props} rows={5} maxLength={2000} required />
      ))}
      {field(
        "posterImage",
        (props) => (
          <input {...props} type="text" />
        ),
        "The name of a picture on the site, such as pages/quiz-night; empty for none.",
      )}
      {field(
        "eventDate",
        (props) => (
          <input {...props} type="datetime-local" required />
        ),
        "London time.",
      )}
      {field(
        "ticketSaleExpiry",
        (props) => (
          <input {...props} type="datetime-local" required />
        ),
        "London time; no later than the event.",
      )}
      {field("location", (props) => (
        <input {...props} type="text" maxLength={200} />
      ))}
      {field(
        "ticketCost",
        (props) => (
          <input {...props} type="text" inputMode="decimal" />
        ),
        "Leave empty when tickets are sold elsewhere (see Link).",
      )}
      {field("totalAvailableTickets", (props) => (
        <input {...props} type="text" inputMode="numeric" required />
      ))}
      {field(
        "link",
        (props) => (
          <input {...props} type="url" />
        ),
        "An outside ticketing page, if any.",
      )}
      <div className="field field-checkbox">
        <input id="event-isTest" name="isTest" type="checkbox" defaultChecked={values.isTest} />
        <label htmlFor="event-isTest">{eventFormLabels.isTest}</label>
      </div>
      {/* aria-disabled, not disabled: a disabled button would drop keyboard focus mid-send. */}
      <button type="submit" name="intent" value="save" className="button" aria-disabled={saving}>
        {saving ? "Saving…" : submitLabel}
      </button>
    </Form>
  );
}

interface InputProps {
  id: string;
  name: string;
  defaultValue: string;
  "aria-invalid": true | undefined;
  "aria-describedby": string | undefined;
}
