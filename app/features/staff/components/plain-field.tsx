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
}: {
  id: string;
  label: string;
  name: string;
  type?: "text" | "email" | "password";
  autoComplete?: string;
  defaultValue?: string;
  error?: string;
  maxLength?: number;
}) {
  const errorId = `${id}-error`;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={name}
        type={type}
        autoComplete={autoComplete}
        defaultValue={defaultValue}
        maxLength={maxLength}
        required
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
      />
      {error ? (
        <p id={errorId} className="field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
