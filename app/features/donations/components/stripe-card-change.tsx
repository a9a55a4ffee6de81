import { Elements, PaymentElement, useElements, useStripe } from "@stripe/react-stripe-js";
import { loadStripe, type Stripe } from "@stripe/stripe-js";
import { useState } from "react";
import { FieldMessage } from "~/components/ui/field";

let stripePromise: Promise<Stripe | null> | undefined;

/**
 * A monthly gift's new card on Stripe (decision 090): the Payment Element confirms the SetupIntent
 * our server made for the gift's customer; then `onConfirmed` hands its id back to the page, whose
 * server makes the card the subscription's own only once Stripe says it is confirmed. A card that
 * needs its bank's check leaves for it and comes back to `returnUrl`, where the page asks again.
 */
export default function StripeCardChange(props: {
  publishableKey: string;
  clientSecret: string;
  returnUrl: string;
  onConfirmed(setupId: string): void;
}) {
  stripePromise ??= loadStripe(props.publishableKey).catch(() => null);
  return (
    <Elements stripe={stripePromise} options={{ clientSecret: props.clientSecret }}>
      <CardChange {...props} />
    </Elements>
  );
}

function CardChange({ returnUrl, onConfirmed }: { returnUrl: string; onConfirmed(setupId: string): void }) {
  const stripe = useStripe();
  const elements = useElements();
  const [problem, setProblem] = useState<string>();
  const [busy, setBusy] = useState(false);
  async function save() {
    if (!stripe || !elements) return setProblem("The card form has not loaded yet. Please try again in a moment.");
    setBusy(true);
    const { error, setupIntent } = await stripe.confirmSetup({
      elements,
      confirmParams: { return_url: new URL(returnUrl, window.location.origin).href },
      redirect: "if_required",
    });
    setBusy(false);
    if (error) return setProblem(error.message ?? "Your card was not confirmed, so nothing has changed.");
    onConfirmed(setupIntent.id);
  }
  return (
    <div className="form">
      <PaymentElement />
      <FieldMessage id="new-card-error" message={problem} announce />
      <button type="button" className="button" onClick={() => void save()} disabled={busy} aria-busy={busy}>
        Save this card
      </button>
    </div>
  );
}
