import { useRef } from "react";
import { useEarlyValue } from "./use-early-input";

interface TextFieldProps {
  /** Makes the field's id unique on the page (`<idPrefix>-<name>`). */
  idPrefix: string;
  label: string;
  name: string;
  value: string;
  error?: string;
  maxLength: number;
  onChange(value: string): void;
  type?: string;
  autoComplete?: string;
  inputMode?: "numeric" | "decimal" | "email" | "text";
  multiline?: boolean;
}

/** A labelled form field whose error message is tied to it for screen readers. */
export function TextField({
  idPrefix,
  label,
  name,
  value,
  error,
  maxLength,
  onChange,
  type = "text",
  autoComplete,
  inputMode,
  multiline,
}: TextFieldProps) {
  const ref = useRef<HTMLInputElement & HTMLTextAreaElement>(null);
  useEarlyValue(ref, value, onChange);
  const id = `${idPrefix}-${name}`;
  const errorId = `${id}-error`;
  const shared = {
    ref,
    id,
    name,
    value,
    maxLength,
    required: true,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": error ? errorId : undefined,
  } as const;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {multiline ? (
        <textarea {...shared} rows={5} onChange={(event) => onChange(event.target.value)} />
      ) : (
        <input
          {...shared}
          type={type}
          autoComplete={autoComplete}
          inputMode={inputMode}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
      {error ? (
        <p id={errorId} className="field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
