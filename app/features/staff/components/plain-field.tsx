/**
 * A labelled input for the staff pages' server-checked forms (no client state): its message from
 * the server sits beside it and is tied to it for screen readers. Their forms are `noValidate`, so
 * that message (not the browser's) is the one staff see.
 */
export function PlainField({
  id,
  label,
  name,
  type = "text",
  autoComplete,
  defaultValue,
  error,
  maxLength = 200,
  required = true,
  hint,
}: {
  id: string;
  label: string;
  name: string;
  type?: "text" | "email" | "password" | "url";
  autoComplete?: string;
  defaultValue?: string;
  error?: string;
  maxLength?: number;
  /** False for a field that may be left empty. */
  required?: boolean;
  /** A line under the label saying what to type. */
  hint?: string;
}) {
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [hint ? hintId : "", error ? errorId : ""].filter(Boolean).join(" ");
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {hint ? (
        <p id={hintId} className="field-hint">
          {hint}
        </p>
      ) : null}
      <input
        id={id}
        name={name}
        type={type}
        autoComplete={autoComplete}
        defaultValue={defaultValue}
        maxLength={maxLength}
        required={required}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
      />
      {error ? (
        <p id={errorId} className="field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
