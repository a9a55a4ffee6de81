import { useEffect, useId, useRef } from "react";
import { useHydrated } from "~/components/ui/use-hydrated";

interface AlertDialogProps {
  /** Whether the alert is showing. */
  open: boolean;
  title: string;
  message: string;
  /** Called when the visitor dismisses the alert (Okay or Escape). */
  onClose?: () => void;
  tone?: "error" | "success";
}

/**
 * The site's alert: a modal dialog with an Okay button, used for non-blocking errors and thanks.
 * Focus moves to Okay when it opens and back where it was when it closes; Escape closes it.
 * Before scripts load it is an ordinary open dialog whose Okay button still closes it
 * (method="dialog"), so a visitor without JavaScript sees and dismisses it too.
 */
export function AlertDialog({ open, title, message, onClose, tone = "error" }: AlertDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const returnFocus = useRef<HTMLElement | null>(null);
  const hydrated = useHydrated();
  const titleId = useId();
  const messageId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog || !hydrated) return;
    if (open && !dialog.open) {
      returnFocus.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      dialog.showModal();
    } else if (!open && dialog.open) {
      dialog.close();
    }
  }, [open, hydrated]);

  function handleClose() {
    const target = returnFocus.current;
    returnFocus.current = null;
    if (target?.isConnected) target.focus();
    onClose?.();
  }

  return (
    <dialog
      ref={ref}
      className={`alert-dialog alert-${tone}`}
      role="alertdialog"
      aria-labelledby={titleId}
      aria-describedby={messageId}
      open={!hydrated && open ? true : undefined}
      onClose={handleClose}
    >
      <h2 id={titleId} className="alert-title">
        {title}
      </h2>
      <p id={messageId}>{message}</p>
      <form method="dialog">
        <button type="submit" className="button" autoFocus>
          Okay
        </button>
      </form>
    </dialog>
  );
}
