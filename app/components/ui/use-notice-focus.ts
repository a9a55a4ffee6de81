import { useEffect, useRef } from "react";
import type { FormResult } from "~/lib/forms";

/**
 * Where the eye goes after a form's answer (decision 077): a page whose notice sits at its top,
 * above a form far down, would otherwise come back scrolled to the form with the answer out of
 * sight. What was done: the notice takes the focus (it is read out) and is scrolled into view. A
 * refusal that names a field: that field, so the person can correct it where they are.
 */
export function useNoticeFocus(result: FormResult | undefined) {
  const notice = useRef<HTMLDivElement & HTMLParagraphElement>(null);
  useEffect(() => {
    if (!result) return;
    const field = result.focus ?? (result.ok ? undefined : Object.keys(result.fields ?? {})[0]);
    // After the page's own scroll handling for the navigation has run.
    const frame = requestAnimationFrame(() => {
      const target = field ? document.querySelector<HTMLElement>(`form [name="${CSS.escape(field)}"]`) : notice.current;
      if (!target) return;
      target.focus({ preventScroll: true });
      target.scrollIntoView({ block: "center" });
    });
    return () => cancelAnimationFrame(frame);
  }, [result]);
  return notice;
}
