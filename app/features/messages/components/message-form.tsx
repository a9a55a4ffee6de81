import { Form } from "react-router";
import { Field, FieldGroup } from "~/components/ui/field";
import { FormNotice } from "~/components/ui/form-notice";
import { plural } from "~/lib/plural";
import { messageLimits, type MessageKind } from "../schema";

// Writing to an event's people (docs/decisions/095-messages-to-attendees.md), in two steps of one
// form that need no JavaScript: write (audience, subject, text), then Preview shows the e-mail as
// its first recipient gets it, with the whole form kept in hidden fields, and Send to N bookings.

export interface AudienceOption {
  value: string;
  label: string;
  count: number;
}

export interface MessagePreview {
  count: number;
  to: string;
  subject: string;
  text: string;
}

/** What the form holds: the fields as typed (text), and the preview once asked for. */
export interface ComposeValues {
  form: Record<string, string>;
  preview?: MessagePreview;
}

/** "12 bookings", or "3 people on the waiting list". */
export function reachWords(audience: string, count: number) {
  return audience === "waiting-list"
    ? `${plural(count, "person", "people")} on the waiting list`
    : plural(count, "booking");
}

export function MessageForm({
  kind,
  choices,
  values,
  errors,
  message,
  busy,
}: {
  kind: MessageKind;
  choices: AudienceOption[];
  values: ComposeValues;
  errors?: Record<string, string>;
  /** The form's refusal, if any. */
  message?: string;
  busy: boolean;
}) {
  const form = values.form;
  const hidden = (
    <>
      <input type="hidden" name="messageId" value={form.messageId ?? ""} />
      <input type="hidden" name="kind" value={kind} />
    </>
  );
  const preview = values.preview;
  if (preview) {
    return (
      <>
        <section className="section" aria-labelledby="preview-title">
          <h2 id="preview-title">Preview</h2>
          <p>
            As {preview.to} will receive it. Each of the {reachWords(form.audience ?? "", preview.count)} gets one copy,
            addressed by their own name; replies go to the charity&apos;s address.
          </p>
          <dl className="facts">
            <div>
              <dt>Subject</dt>
              <dd>{preview.subject}</dd>
            </div>
          </dl>
          <pre className="email-text" tabIndex={0} role="region" aria-label="The e-mail's text">
            {preview.text}
          </pre>
        </section>
        <Form method="post" className="form">
          {hidden}
          <input type="hidden" name="audience" value={form.audience ?? ""} />
          <input type="hidden" name="subject" value={form.subject ?? ""} />
          <input type="hidden" name="body" value={form.body ?? ""} />
          <div className="form-actions">
            <button type="submit" name="intent" value="send" className="button" disabled={busy}>
              Send to {reachWords(form.audience ?? "", preview.count)}
            </button>
            <button type="submit" name="intent" value="edit" className="button button-secondary">
              Change the message
            </button>
          </div>
        </Form>
      </>
    );
  }
  const chosen = form.audience ?? choices[0]?.value;
  return (
    <Form method="post" className="form" noValidate>
      {message ? <FormNotice ok={false}>{message}</FormNotice> : null}
      {hidden}
      <FieldGroup id="message-audience" className="radio-group" legend="Send to" error={errors?.audience}>
        {choices.map((choice) => (
          <div className="radio-field" key={choice.value}>
            <input
              type="radio"
              id={`message-audience-${choice.value.replace(":", "-")}`}
              name="audience"
              value={choice.value}
              defaultChecked={choice.value === chosen}
            />
            <label htmlFor={`message-audience-${choice.value.replace(":", "-")}`}>
              {choice.label} ({reachWords(choice.value, choice.count)})
            </label>
          </div>
        ))}
      </FieldGroup>
      <Field
        id="message-subject"
        label="Subject"
        input={{ name: "subject", maxLength: messageLimits.subject, defaultValue: form.subject ?? "", required: true }}
        error={errors?.subject}
      />
      <Field
        id="message-body"
        label="Message"
        hint={`Plain text, up to ${messageLimits.body} characters; a blank line starts a new paragraph. The e-mail begins “Dear” and each person's name, and ends with the event's name and date${kind === "thank-you" ? ", after a link to give" : ""}.`}
        textarea={{
          name: "body",
          rows: 12,
          maxLength: messageLimits.body,
          defaultValue: form.body ?? "",
          required: true,
        }}
        error={errors?.body}
      />
      <button type="submit" name="intent" value="preview" className="button" disabled={busy}>
        Preview
      </button>
    </Form>
  );
}
