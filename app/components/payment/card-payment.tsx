import { Suspense, lazy, useCallback, useEffect, useRef, useState } from "react";
import { formatPounds } from "~/lib/money";
import { unexpectedError, type CardFormHandle } from "./card-form";
import { OfflineBankForm } from "./offline-bank-form";
import { OfflineCardForm } from "./offline-card-form";

const StripeCardForm = lazy(() => import("./stripe-card-form"));

/** Why a payment could not start, in words for the visitor (shown under the Pay now button). */
export class PaymentStartError extends Error {}

export interface StartedPayment {
  clientSecret: string;
  /** Where the provider sends the visitor once the card payment succeeds. */
  returnUrl: string;
  email: string;
}

/**
 * The card payment's state, shared by the booking and donation forms (docs/specification.md,
 * section 4, Payment form): idle, then submitting with the button disabled, and back to idle with
 * a message on error.
 */
export function useCardPayment() {
  const cardForm = useRef<CardFormHandle>(null);
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [ready, setReady] = useState(false);
  // The card form says when it is ready: once the page's scripts run (Stripe's, once Stripe.js has loaded).
  const markReady = useCallback(() => setReady(true), []);

  /**
   * Checks the card, then `start` (which asks our server for the payment, or returns undefined after
   * showing its own field errors), then confirms the card. On success the page moves on. When the
   * card is refused, `afterFailure` runs before the form is ready again (a booking gives back its seats).
   */
  async function pay(
    start: () => Promise<StartedPayment | undefined>,
    afterFailure?: () => Promise<void>,
    /** Nothing to pay (free tickets): no card is asked for, and the page moves on once started. */
    free = false,
  ) {
    const card = cardForm.current;
    if (submitting || !ready || (!card && !free)) return;
    setSubmitting(true);
    try {
      if (free || !card) {
        const started = await start();
        if (started) window.location.assign(started.returnUrl);
        return;
      }
      const problem = await card.check();
      if (problem) return setError(problem);
      const started = await start();
      if (!started) return;
      const failure = await card.pay(started.clientSecret, started.returnUrl, started.email);
      if (failure) {
        setError(failure);
        await afterFailure?.();
      }
    } catch (caught) {
      setError(caught instanceof PaymentStartError ? caught.message : unexpectedError((caught as Error).message));
    } finally {
      setSubmitting(false);
    }
  }

  return { cardForm, error, setError, submitting, ready, markReady, pay };
}

export type CardPaymentState = ReturnType<typeof useCardPayment>;

interface CardPaymentProps {
  payment: CardPaymentState;
  provider: "offline" | "stripe";
  /** Stripe's publishable key, when Stripe takes the payments. */
  publishableKey?: string;
  amountPence: number;
  /** Tickets chosen that are all free: no card form, a button that books them. */
  free?: boolean;
  /** A monthly gift's first payment, whose card pays the later months too (decision 089). */
  monthly?: boolean;
  /** A monthly gift paid by Bacs Direct Debit (decision 092): bank details instead of a card. */
  directDebit?: { charityName: string };
}

/** Says the form is ready once the page's scripts run, where there is no card form to say it. */
function ReadyWithoutCard({ onReady }: { onReady: () => void }) {
  useEffect(() => onReady(), [onReady]);
  return null;
}

/**
 * The Card details section: the provider's card form, the Pay now button and the outcome messages.
 * For free tickets (decision 078) there is nothing to pay: no card form, and a button that books them.
 */
export function CardPayment({
  payment,
  provider,
  publishableKey,
  amountPence,
  free = false,
  monthly = false,
  directDebit,
}: CardPaymentProps) {
  return (
    <>
      {directDebit ? (
        <>
          <h2 id="card-details">Direct Debit details</h2>
          {provider === "stripe" && publishableKey ? (
            <Suspense fallback={null}>
              <StripeCardForm
                ref={payment.cardForm}
                publishableKey={publishableKey}
                amountPence={amountPence}
                monthly
                paymentMethodTypes={["bacs_debit"]}
                onReady={payment.markReady}
                onError={payment.setError}
              />
            </Suspense>
          ) : (
            <OfflineBankForm ref={payment.cardForm} onReady={payment.markReady} charityName={directDebit.charityName} />
          )}
          <p className="notice no-js-only">
            Setting up a Direct Debit here needs JavaScript: please turn it on in your browser to continue.
          </p>
        </>
      ) : free ? (
        <>
          <h2 id="card-details">No payment needed</h2>
          <p>These tickets are free: no card is needed.</p>
          <ReadyWithoutCard onReady={payment.markReady} />
        </>
      ) : (
        <>
          <h2 id="card-details">Card details</h2>
          {provider === "stripe" && publishableKey ? (
            <Suspense fallback={null}>
              <StripeCardForm
                ref={payment.cardForm}
                publishableKey={publishableKey}
                amountPence={amountPence}
                monthly={monthly}
                onReady={payment.markReady}
                onError={payment.setError}
              />
            </Suspense>
          ) : (
            <OfflineCardForm ref={payment.cardForm} onReady={payment.markReady} />
          )}
          {/* Hidden once the page's scripts run (root.tsx marks <html> with "js"). */}
          <p className="notice no-js-only">
            Paying by card needs JavaScript: please turn it on in your browser to continue.
          </p>
        </>
      )}
      <button
        type="submit"
        className="button"
        disabled={!payment.ready}
        aria-disabled={payment.submitting || undefined}
      >
        {!payment.ready
          ? "Loading..."
          : free
            ? "Book free tickets"
            : directDebit
              ? `Set up my Direct Debit of ${formatPounds(amountPence)} a month`
              : `Pay now ${formatPounds(amountPence)}`}
      </button>
      {payment.error ? (
        <p className="payment-error" role="alert">
          {payment.error}
        </p>
      ) : null}
      {payment.submitting ? (
        <p role="status">
          {free
            ? "Booking your tickets..."
            : directDebit
              ? "Setting up your Direct Debit..."
              : "Processing your payment..."}
        </p>
      ) : null}
    </>
  );
}
