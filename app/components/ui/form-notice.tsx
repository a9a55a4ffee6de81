import type { ReactNode, Ref } from "react";

/**
 * A form's message to the person who sent it (docs/decisions/061-one-way-to-answer-a-form.md):
 * what was done, announced politely (role=status), or why nothing was, announced at once
 * (role=alert). `details` (a list of what to correct) follows the message; with `focusRef` the
 * notice can take the keyboard's focus, for a page that moves there after an answer.
 */
export function FormNotice({
  ok,
  children,
  details,
  id,
  focusRef,
}: {
  ok: boolean;
  /** The message. */
  children: ReactNode;
  details?: ReactNode;
  id?: string;
  focusRef?: Ref<HTMLDivElement & HTMLParagraphElement>;
}) {
  const shared = {
    id,
    ref: focusRef,
    className: ok ? "notice" : "form-summary",
    role: ok ? "status" : "alert",
    tabIndex: focusRef ? -1 : undefined,
  };
  if (details === undefined) return <p {...shared}>{children}</p>;
  return (
    <div {...shared}>
      <p>{children}</p>
      {details}
    </div>
  );
}
