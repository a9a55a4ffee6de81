import { useEffect, useRef, useState, type FormEvent } from "react";
import { useFetcher } from "react-router";
import { AlertDialog } from "~/components/ui/alert-dialog";
import { TextField } from "~/components/ui/text-field";
import {
  validateVolunteer,
  volunteerLimits,
  volunteerReplies,
  type VolunteerErrors,
  type VolunteerField,
  type VolunteerSubmissionResult,
} from "../schema";

type Alert = { title: string; message: string; tone: "error" | "success" };

const emptyValues = { name: "", email: "", reason: "" };

function alertFor(result: VolunteerSubmissionResult | undefined): Alert | null {
  if (result?.status === "ok")
    return { title: volunteerReplies.thanksTitle, message: volunteerReplies.thanks, tone: "success" };
  if (result?.status === "limited")
    return { title: volunteerReplies.failedTitle, message: result.message, tone: "error" };
  if (result?.status === "failed")
    return { title: volunteerReplies.failedTitle, message: volunteerReplies.failed, tone: "error" };
  return null;
}

/**
 * The volunteering sign-up form. It posts to the volunteering page's action: with JavaScript it
 * first checks the fields as the server will, then sends them through a fetcher and answers with
 * an alert; without, the page itself answers (`result`, with the values sent back when they need
 * correcting).
 */
export function VolunteerForm({
  result,
  submitted,
}: {
  result?: VolunteerSubmissionResult;
  submitted?: Partial<typeof emptyValues>;
}) {
  const [values, setValues] = useState(result?.status === "ok" ? emptyValues : { ...emptyValues, ...submitted });
  const [errors, setErrors] = useState<VolunteerErrors>(result?.status === "invalid" ? result.errors : {});
  const [alert, setAlert] = useState<Alert | null>(alertFor(result));
  const fetcher = useFetcher<{ result: VolunteerSubmissionResult }>();
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
    const { result: reply } = fetcher.data;
    if (reply.status === "ok") {
      setValues(emptyValues);
      setErrors({});
    } else if (reply.status === "invalid") {
      setErrors(reply.errors);
      focusFirstError(reply.errors);
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
        <TextField
          idPrefix="volunteer"
          label="NAME"
          name="name"
          autoComplete="name"
          value={values.name}
          error={errors.name}
          maxLength={volunteerLimits.name}
          onChange={(value) => change("name", value)}
        />
        <TextField
          idPrefix="volunteer"
          label="EMAIL"
          name="email"
          type="email"
          autoComplete="email"
          value={values.email}
          error={errors.email}
          maxLength={volunteerLimits.email}
          onChange={(value) => change("email", value)}
        />
        <TextField
          idPrefix="volunteer"
          label={`REASON (${values.reason.length}/${volunteerLimits.reason})`}
          name="reason"
          multiline
          value={values.reason}
          error={errors.reason}
          maxLength={volunteerLimits.reason}
          onChange={(value) => change("reason", value)}
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
