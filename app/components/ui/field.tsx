import {
  useRef,
  type InputHTMLAttributes,
  type ReactNode,
  type Ref,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from "react";
import { useEarlyValue } from "./use-early-input";

// The one field of every form (docs/decisions/061-one-way-to-answer-a-form.md): a label, the
// control, a hint and the field's message, tied together for screen readers. The message is
// written beside the field; the form's own message is `<FormNotice>`.

/** What a field's control carries so that its label, hint and message are read with it. */
export interface ControlProps {
  id: string;
  "aria-invalid": true | undefined;
  "aria-describedby": string | undefined;
}

type InputProps = InputHTMLAttributes<HTMLInputElement> & { ref?: Ref<HTMLInputElement> };
type TextareaProps = TextareaHTMLAttributes<HTMLTextAreaElement> & { ref?: Ref<HTMLTextAreaElement> };
type SelectProps = SelectHTMLAttributes<HTMLSelectElement> & { ref?: Ref<HTMLSelectElement> };

/** The control: exactly one of an input, a textarea, a select (its options as `children`) or one drawn by the caller. */
type Control =
  | { input: InputProps; textarea?: never; select?: never; control?: never }
  | { textarea: TextareaProps; input?: never; select?: never; control?: never }
  | { select: SelectProps; input?: never; textarea?: never; control?: never }
  | { control: (props: ControlProps) => ReactNode; input?: never; textarea?: never; select?: never };

export type FieldProps = Control & {
  /** The control's id; its hint is `<id>-hint` and its message `<id>-error`. */
  id: string;
  label: ReactNode;
  /** A line under the label saying what to type. */
  hint?: ReactNode;
  /** What is wrong with what was typed; the field is marked invalid while there is one. */
  error?: string | null;
  /** The message is announced when it appears (role=alert): for a page whose form has no notice of its own. */
  announce?: boolean;
  /** Classes besides `field` on the field's box. */
  className?: string;
  /** Shown between the label and the hint (the picture a field holds now). */
  aside?: ReactNode;
  /** A select's options; for any other control, shown after the message (a button that fills the field). */
  children?: ReactNode;
  /**
   * For a field whose value the page holds (an input or textarea with `value`): each new value,
   * and once, what was typed before the page's scripts ran (decision 045).
   */
  onValue?: (value: string) => void;
};

/** The ids a control is described by: its hint, its message and any of its own. */
function describedBy(...ids: (string | false | null | undefined)[]): string | undefined {
  return ids.filter(Boolean).join(" ") || undefined;
}

/** A labelled field with its hint and message; a checkbox has its label after it. */
export function Field(props: FieldProps) {
  const { id, label, hint, error, announce, className, aside, children, onValue } = props;
  const early = useRef<HTMLInputElement & HTMLTextAreaElement>(null);
  const held = props.input ?? props.textarea;
  useEarlyValue(early, typeof held?.value === "string" ? held.value : "", (value) => onValue?.(value));
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const own = (props.input ?? props.textarea ?? props.select)?.["aria-describedby"];
  const described: ControlProps = {
    id,
    "aria-invalid": error || (props.input ?? props.textarea ?? props.select)?.["aria-invalid"] ? true : undefined,
    "aria-describedby": describedBy(hintId, errorId, own),
  };
  const controlled = onValue
    ? { ref: early, onChange: (event: { target: { value: string } }) => onValue(event.target.value) }
    : {};
  const checkbox = props.input?.type === "checkbox" || props.input?.type === "radio";
  const control = props.input ? (
    <input {...props.input} {...described} {...controlled} />
  ) : props.textarea ? (
    <textarea {...props.textarea} {...described} {...controlled} />
  ) : props.select ? (
    <select {...props.select} {...described}>
      {children}
    </select>
  ) : (
    props.control(described)
  );
  const labelled = <label htmlFor={id}>{label}</label>;
  return (
    <div className={className ? `field ${className}` : "field"}>
      {checkbox ? (
        <div className="field-checkbox">
          {control}
          {labelled}
        </div>
      ) : (
        labelled
      )}
      {aside}
      {hint ? (
        <p id={hintId} className="field-hint">
          {hint}
        </p>
      ) : null}
      {checkbox ? null : control}
      <FieldMessage id={errorId} message={error} announce={announce} />
      {props.select ? null : children}
    </div>
  );
}

/**
 * A group of fields under one legend (a picture's fields, a list, a choice of radio buttons), with
 * the group's hint and message before its fields.
 */
export function FieldGroup({
  id,
  legend,
  hint,
  error,
  className = "form-group",
  children,
}: {
  /** The group's id; its hint is `<id>-hint` and its message `<id>-error`. */
  id: string;
  legend: ReactNode;
  hint?: ReactNode;
  error?: string | null;
  className?: string;
  children?: ReactNode;
}) {
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  return (
    <fieldset
      className={className}
      id={id}
      aria-invalid={error ? true : undefined}
      aria-describedby={describedBy(hintId, errorId)}
    >
      <legend>{legend}</legend>
      {hint ? (
        <p id={hintId} className="field-hint">
          {hint}
        </p>
      ) : null}
      <FieldMessage id={errorId} message={error} />
      {children}
    </fieldset>
  );
}

/**
 * A field's message on its own, for what has no control to sit beside (a project's address, a
 * picture kept on the form): nothing when there is no message.
 */
export function FieldMessage({ id, message, announce }: { id?: string; message?: ReactNode; announce?: boolean }) {
  if (!message) return null;
  return (
    <p id={id} className="field-error" role={announce ? "alert" : undefined}>
      {message}
    </p>
  );
}
