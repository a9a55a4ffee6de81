import { useRef, useState, type FormEvent } from "react";
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
  return null;
}

/**
 * The volunteering sign-up form. With JavaScript it checks the fields as the server will, posts to
 * /api/volunteers and answers with an alert; without, it posts to the page, whose action answers
 * (`result`, with the values sent back when they need correcting).
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
  const [sending, setSending] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);

  function change(field: VolunteerField, value: string) {
    setValues((current) => ({ ...current, [field]: value.slice(0, volunteerLimits[field]) }));
    if (errors[field]) setErrors((current) => ({ ...current, [field]: undefined }));
  }

  function focusFirstError(found: VolunteerErrors) {
    const first = (["name", "email", "reason"] as const).find((field) => found[field]);
    if (first) formRef.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (sending) return;
    const validation = validateVolunteer(values);
    if (!validation.ok) {
      setErrors(validation.errors);
      focusFirstError(validation.errors);
      return;
    }
    setSending(true);
    try {
      const website = new FormData(event.currentTarget).get("website");
      const response = await fetch("/api/volunteers", {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify({ ...values, website }),
      });
      const body = (await response.json().catch(() => null)) as VolunteerSubmissionResult | null;
      if (response.ok && body?.status === "ok") {
        setValues(emptyValues);
        setErrors({});
        setAlert(alertFor(body));
      } else if (body?.status === "invalid") {
        setErrors(body.errors);
        focusFirstError(body.errors);
      } else if (body?.status === "limited") {
        setAlert(alertFor(body));
      } else {
        setAlert({ title: volunteerReplies.failedTitle, message: volunteerReplies.failed, tone: "error" });
      }
    } catch {
      setAlert({ title: volunteerReplies.failedTitle, message: volunteerReplies.failed, tone: "error" });
    } finally {
      setSending(false);
    }
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
