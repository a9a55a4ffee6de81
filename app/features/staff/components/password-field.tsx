import { Form, useNavigation } from "react-router";
import { FormNotice } from "~/components/ui/form-notice";
import { Field } from "~/components/ui/field";

/** A password a member of staff types: never shown again after a refusal, only its message. */
export function PasswordField({
  id,
  label,
  name,
  error,
}: {
  id: string;
  label: string;
  name: "currentPassword" | "newPassword" | "repeatPassword";
  error: string | undefined;
}) {
  return (
    <Field
      id={id}
      label={label}
      input={{
        name,
        type: "password",
        autoComplete: name === "currentPassword" ? "current-password" : "new-password",
        maxLength: 200,
        required: true,
      }}
      error={error}
    />
  );
}

/** A new password and the same again, as the staff page and an invitation's page ask for it. */
export function NewPasswordFields({
  idPrefix,
  fields,
}: {
  /** Makes the ids unique on the page (`<idPrefix>new-password`). */
  idPrefix: string;
  fields: Record<string, string> | undefined;
}) {
  return (
    <>
      <PasswordField
        id={`${idPrefix}new-password`}
        label="New password"
        name="newPassword"
        error={fields?.newPassword}
      />
      <PasswordField
        id={`${idPrefix}repeat-password`}
        label="Repeat the password"
        name="repeatPassword"
        error={fields?.repeatPassword}
      />
      <p className="field-hint">At least 12 characters.</p>
    </>
  );
}

/**
 * The form of a one-time link's page (an invitation, a password reset): the account's address for
 * password managers, a new password twice, and one button that saves it and signs the member in.
 */
export function ChoosePasswordForm({
  email,
  idPrefix,
  answer,
}: {
  email: string;
  idPrefix: string;
  /** The action's answer: a refusal's fields beside them, any other message above. */
  answer: { ok: boolean; message: string; fields?: Record<string, string> } | undefined;
}) {
  const busy = useNavigation().state !== "idle";
  const fields = answer?.fields;
  return (
    <Form method="post" className="form" noValidate>
      {answer && !fields ? <FormNotice ok={answer.ok}>{answer.message}</FormNotice> : null}
      <input type="hidden" name="username" value={email} autoComplete="username" />
      <NewPasswordFields idPrefix={idPrefix} fields={fields} />
      <button type="submit" className="button" aria-disabled={busy}>
        {busy ? "Saving…" : "Choose this password and sign in"}
      </button>
    </Form>
  );
}

/** A one-time link's page: never in a search engine or a cache, and its address never sent on as a referrer. */
export function oneTimeLinkHeaders() {
  return {
    "X-Robots-Tag": "noindex, nofollow",
    "Cache-Control": "private, no-store",
    "Referrer-Policy": "no-referrer",
  };
}
