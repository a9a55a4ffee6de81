import type { ButtonHTMLAttributes, Ref } from "react";

/** The spec's spinner: a turning ring with the text Loading... (still, when reduced motion is asked for). */
export function Spinner({ label = "Loading..." }: { label?: string }) {
  return (
    <div className="spinner" role="status">
      <span className="spinner-ring" aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}

/**
 * A form's submit button that, while its form is being sent, shows a small ring and says what is
 * happening ("Saving…") instead of its label, and tells screen readers it is busy.
 */
export function BusyButton({
  busy,
  busyLabel,
  children,
  type = "submit",
  className = "button",
  ...button
}: ButtonHTMLAttributes<HTMLButtonElement> & { busy: boolean; busyLabel: string; ref?: Ref<HTMLButtonElement> }) {
  return (
    <button type={type} className={className} aria-busy={busy} {...button}>
      {busy ? (
        <>
          <span className="spinner-ring spinner-ring-small" aria-hidden="true" />
          {busyLabel}
        </>
      ) : (
        children
      )}
    </button>
  );
}
