import { useEffect, useRef, useState } from "react";
import { Form, Link, useNavigation, useRevalidator } from "react-router";
import { ConfirmDialog } from "~/components/ui/confirm-dialog";
import { Field } from "~/components/ui/field";
import { BusyButton } from "~/components/ui/spinner";
import { londonDate, londonTime } from "~/lib/london-time";
import { formatPounds } from "~/lib/money";
import type { CancellationProgress } from "../cancellation.server";
import { useHydrated } from "~/components/ui/use-hydrated";

/** How often the page asks again while the refunds are under way. */
const refreshMs = 2000;

/**
 * On an event's staff page: `Cancel event` (a required reason, then a question), or, once it is
 * cancelled, how far the refunds have got, refreshing by itself until they are all made.
 */
export function EventCancellation({
  eventName,
  progress,
  error,
  reason,
  gifts,
}: {
  eventName: string;
  /** The paid donations made at checkout with its bookings: kept unless staff ask (decision 085). */
  gifts?: { count: number; pence: number };
  progress: CancellationProgress | undefined;
  /** The action's message for the reason field. */
  error?: string;
  reason?: string;
}) {
  if (progress) return <CancellationProgressPanel progress={progress} />;
  return <CancelEventForm eventName={eventName} error={error} reason={reason} gifts={gifts} />;
}

function CancellationProgressPanel({ progress }: { progress: CancellationProgress }) {
  const revalidator = useRevalidator();
  const revalidate = useRef(revalidator.revalidate);
  revalidate.current = revalidator.revalidate;
  useEffect(() => {
    if (!progress.running) return;
    const timer = setInterval(() => {
      if (document.visibilityState === "visible") void revalidate.current();
    }, refreshMs);
    return () => clearInterval(timer);
  }, [progress.running]);
  return (
    <section className="section event-cancellation" aria-labelledby="cancellation-title">
      <h2 id="cancellation-title">Cancelled</h2>
      <p>
        Cancelled on {londonDate(progress.cancelledAt)} at {londonTime(progress.cancelledAt)}: {progress.reason}
      </p>
      <p className="cancellation-progress" role="status" aria-live="polite">
        Refunded {progress.refunded} of {progress.total} {progress.total === 1 ? "booking" : "bookings"}
        {progress.running ? "…" : "."}
      </p>
      <progress max={Math.max(progress.total, 1)} value={progress.refunded} aria-label="Bookings refunded" />
      {progress.waitingTotal > 0 ? (
        <>
          <h3>Refunds waiting</h3>
          <p>The card provider has not made these yet; they are tried again automatically.</p>
          <ul>
            {progress.waiting.map((w) => (
              <li key={w.bookingRef}>
                <Link to={`/admin/bookings/${w.bookingRef}`}>{w.code}</Link>: Refund waiting:{" "}
                {w.error ?? "not yet answered"}
              </li>
            ))}
          </ul>
          {progress.waitingTotal > progress.waiting.length ? (
            <p>And {progress.waitingTotal - progress.waiting.length} more.</p>
          ) : null}
        </>
      ) : null}
    </section>
  );
}

function CancelEventForm({
  eventName,
  error,
  reason,
  gifts,
}: {
  eventName: string;
  error?: string;
  reason?: string;
  gifts?: { count: number; pence: number };
}) {
  const navigation = useNavigation();
  const cancelling = navigation.state === "submitting" && navigation.formData?.get("intent") === "cancel";
  const formRef = useRef<HTMLFormElement>(null);
  const confirmed = useRef(false);
  const [asking, setAsking] = useState(false);
  const [missing, setMissing] = useState(false);
  // Sent before the scripts ran, the form would cancel the event without its question: the button
  // waits for them, as Refund does.
  const ready = useHydrated();
  const message =
    error ?? (missing ? "Say why the event is cancelled (at most 200 characters): the buyers are told." : undefined);
  return (
    <section className="section event-cancellation" aria-labelledby="cancel-title">
      <h2 id="cancel-title">Cancel the event</h2>
      <p>
        Sales stop at once, the public pages say Cancelled, and every paid booking is refunded in full; each buyer is
        told by e-mail, with your reason.
      </p>
      <Form
        method="post"
        className="form"
        ref={formRef}
        noValidate
        onSubmit={(event) => {
          if (cancelling) {
            event.preventDefault();
            return;
          }
          if (confirmed.current) {
            confirmed.current = false;
            return;
          }
          event.preventDefault();
          const typed = String(new FormData(event.currentTarget).get("reason") ?? "").trim();
          setMissing(typed === "");
          if (typed !== "") setAsking(true);
        }}
      >
        <input type="hidden" name="intent" value="cancel" />
        <Field
          id="cancel-reason"
          label="Reason"
          textarea={{ name: "reason", rows: 3, maxLength: 200, required: true, defaultValue: reason ?? "" }}
          error={message}
        />
        {gifts && gifts.count > 0 ? (
          <Field
            id="cancel-refund-donations"
            label={`Also refund the ${gifts.count === 1 ? "donation" : `${gifts.count} donations`} made with its bookings (${formatPounds(gifts.pence)})`}
            hint="Donations added at checkout are gifts: they stay with the charity unless this is ticked."
            input={{ type: "checkbox", name: "refundDonations", value: "on" }}
          />
        ) : null}
        <div className="form-actions">
          <BusyButton
            busy={cancelling}
            busyLabel="Cancelling…"
            className="button button-danger"
            aria-disabled={cancelling}
            disabled={!ready}
          >
            Cancel event
          </BusyButton>
          <p className="form-progress" role="status">
            {cancelling ? "Cancelling…" : ""}
          </p>
        </div>
      </Form>
      <ConfirmDialog
        open={asking}
        title={`Cancel ${eventName}?`}
        message="Sales stop now and every paid booking is refunded in full. This cannot be undone."
        confirmLabel="Cancel the event and refund everyone"
        cancelLabel="Keep the event"
        onCancel={() => setAsking(false)}
        onConfirm={() => {
          setAsking(false);
          confirmed.current = true;
          formRef.current?.requestSubmit();
        }}
      />
    </section>
  );
}
