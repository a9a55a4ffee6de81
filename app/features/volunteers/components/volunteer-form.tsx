import { useEffect, useRef, useState, type FormEvent } from "react";
import { useFetcher } from "react-router";
import { AlertDialog } from "~/components/ui/alert-dialog";
import { Field } from "~/components/ui/field";
import type { FormResult } from "~/lib/forms";
import {
  validateVolunteer,
  volunteerLimits,
  volunteerReplies,
  type VolunteerErrors,
  type VolunteerField,
} from "../schema";

type Alert = { title: string; message: string; tone: "error" | "success" };

const emptyValues = { name: "", email: "", reason: "" };

/** The alert an answer brings: thanks, or why nothing was sent; none when the fields say what to correct. */
function alertFor(result: FormResult | undefined): Alert | null {
  if (!result) return null;
  if (result.ok) return { title: volunteerReplies.thanksTitle, message: result.message, tone: "success" };
  if (result.fields) return null;
  return { title: volunteerReplies.failedTitle, message: result.message, tone: "error" };
}

/** What was sent, to be shown again after a refusal. */
function typed(result: FormResult | undefined) {
  const sent = result && !result.ok ? result.values : undefined;
  return { name: sent?.name ?? "", email: sent?.email ?? "", reason: sent?.reason ?? "" };
}

/**
 * The volunteering sign-up form. It posts to the volunteering page's action: with JavaScript it
 * first checks the fields as the server will, then sends them through a fetcher and answers with
 * an alert; without, the page itself answers (`result`, with what was typed when it needs
 * correcting).
 */
export function VolunteerForm({ result }: { result?: FormResult }) {
  const [values, setValues] = useState(typed(result));
  const [errors, setErrors] = useState<VolunteerErrors>(result && !result.ok ? (result.fields ?? {}) : {});
  const [alert, setAlert] = useState<Alert | null>(alertFor(result));
  const fetcher = useFetcher<FormResult>();
  const sending = fetcher.state !== "idle";
  const formRef = useRef<HTMLFormElement>(null);
  const answered = useRef<unknown>(undefined);

  function change(field: VolunteerField, value: string) {
    setValues((current) => ({ ...current, [field]: value.slice(0, volunteerLimits[field]) }));
    if (errors[field]) setErrors((current) => ({ ...current, [field]: undefined }));
  }

  function focusFirstError(found: VolunteerErrors) {
    const first = (["name", "email", "reason"] as const).find((field) => found[field]);
    if (first) formRef.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
  }

  // Each answer from the server, once.
  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data || answered.current === fetcher.data) return;
    answered.current = fetcher.data;
    const reply = fetcher.data;
    if (reply.ok) {
      setValues(emptyValues);
      setErrors({});
    } else if (reply.fields) {
      setErrors(reply.fields);
      focusFirstError(reply.fields);
    }
    setAlert(alertFor(reply));
  }, [fetcher.state, fetcher.data]);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (sending) return;
    const validation = validateVolunteer(values);
    if (!validation.ok) {
      setErrors(validation.errors);
      focusFirstError(validation.errors);
      return;
    }
    void fetcher.submit(event.currentTarget, { method: "post", action: "/volunteering" });
  }

  return (
    <>
      <form ref={formRef} method="post" action="/volunteering" className="form" noValidate onSubmit={submit}>
        <Field
          id="volunteer-name"
          label="NAME"
          input={{
            name: "name",
            autoComplete: "name",
            value: values.name,
            maxLength: volunteerLimits.name,
            required: true,
          }}
          error={errors.name}
          onValue={(value) => change("name", value)}
        />
        <Field
          id="volunteer-email"
          label="EMAIL"
          input={{
            name: "email",
            type: "email",
            autoComplete: "email",
            value: values.email,
            maxLength: volunteerLimits.email,
            required: true,
          }}
          error={errors.email}
          onValue={(value) => change("email", value)}
        />
        <Field
          id="volunteer-reason"
          label={`REASON (${values.reason.length}/${volunteerLimits.reason})`}
          textarea={{
            name: "reason",
            value: values.reason,
            maxLength: volunteerLimits.reason,
            required: true,
            rows: 5,
          }}
          error={errors.reason}
          onValue={(value) => change("reason", value)}
        />
        {/* Robots fill every field; people never see this one. */}
        <div className="honeypot" aria-hidden="true">
          <label>
            Leave this field empty
            <input type="text" name="website" tabIndex={-1} autoComplete="off" defaultValue="" />
          </label>
        </div>
        {/* aria-disabled, not disabled: a disabled button would drop keyboard focus mid-send. */}
        <button type="submit" className="button" aria-disabled={sending}>
          Send
        </button>
      </form>
      <AlertDialog
        open={alert !== null}
        title={alert?.title ?? ""}
        message={alert?.message ?? ""}
        tone={alert?.tone}
        onClose={() => setAlert(null)}
      />
    </>
  );
}
