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
