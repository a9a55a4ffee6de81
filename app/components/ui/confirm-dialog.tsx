import { useEffect, useId, useRef } from "react";

interface ConfirmDialogProps {
  /** Whether the question is showing. */
  open: boolean;
  title: string;
  message: string;
  confirmLabel: string;
  cancelLabel: string;
  onConfirm(): void;
  /** Called for the cancel button and for Escape. */
  onCancel(): void;
}

/**
 * Asks before something that cannot be undone from the page: a modal dialog whose focus starts on
 * the safe choice (cancel) and goes back where it was when it closes.
 */
export function ConfirmDialog({
  open,
  title,
  message,
  confirmLabel,
  cancelLabel,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const returnFocus = useRef<HTMLElement | null>(null);
  const titleId = useId();
  const messageId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      returnFocus.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      dialog.showModal();
      cancelRef.current?.focus();
    } else if (!open && dialog.open) {
      dialog.close();
      if (returnFocus.current?.isConnected) returnFocus.current.focus();
      returnFocus.current = null;
    }
  }, [open]);

  return (
    <dialog
      ref={ref}
      className="alert-dialog"
      role="alertdialog"
      aria-labelledby={titleId}
      aria-describedby={messageId}
      onCancel={(event) => {
        event.preventDefault();
        onCancel();
      }}
    >
      <h2 id={titleId} className="alert-title">
        {title}
      </h2>
      <p id={messageId}>{message}</p>
      <div className="dialog-actions">
        <button type="button" className="button button-danger" onClick={onConfirm}>
          {confirmLabel}
        </button>
        <button ref={cancelRef} type="button" className="button button-secondary" onClick={onCancel}>
          {cancelLabel}
        </button>
      </div>
    </dialog>
  );
}
