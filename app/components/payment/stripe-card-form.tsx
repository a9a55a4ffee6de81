import { Elements, PaymentElement, useElements, useStripe } from "@stripe/react-stripe-js";
import { loadStripe, type Stripe } from "@stripe/stripe-js";
import { useEffect, useImperativeHandle, type Ref } from "react";
import { unexpectedError, type CardFormHandle } from "./card-form";

let stripePromise: Promise<Stripe | null> | undefined;

interface StripeCardFormProps {
  ref: Ref<CardFormHandle>;
  publishableKey: string;
  amountPence: number;
  /** A monthly gift's first payment: Stripe keeps the card for the later months (decision 089). */
  monthly?: boolean;
  /** Only these payment methods (a Direct Debit gift: `bacs_debit`, whose mandate the element shows itself). */
  paymentMethodTypes?: string[];
  onReady(): void;
  /** Stripe.js could not be loaded (no network, a blocker): the visitor is told. */
  onError(message: string): void;
}

/**
 * Stripe's Payment Element. The PaymentIntent is created by our server only when the visitor pays
 * (Stripe's deferred intent flow), for the amount the server computes; this shows the amount only.
 * Loaded on its own, so pages on the offline provider never download Stripe's code.
 */
export default function StripeCardForm({
  ref,
  publishableKey,
  amountPence,
  monthly = false,
  paymentMethodTypes,
  onReady,
  onError,
}: StripeCardFormProps) {
  stripePromise ??= loadStripe(publishableKey).catch((error: Error) => {
    onError(unexpectedError(`the card form could not be loaded (${error.message})`));
    return null;
  });
  return (
    <Elements
      stripe={stripePromise}
      options={{
        mode: monthly ? "subscription" : "payment",
        amount: amountPence,
        currency: "gbp",
        ...(paymentMethodTypes && { paymentMethodTypes }),
      }}
    >
      <PaymentForm formRef={ref} amountPence={amountPence} onReady={onReady} />
    </Elements>
  );
}

function PaymentForm({
  formRef,
  amountPence,
  onReady,
}: {
  formRef: Ref<CardFormHandle>;
  amountPence: number;
  onReady(): void;
}) {
  const stripe = useStripe();
  const elements = useElements();
  useEffect(() => {
    elements?.update({ amount: amountPence });
  }, [elements, amountPence]);
  useImperativeHandle(formRef, () => ({
    async check() {
      if (!stripe || !elements) return unexpectedError("the card form has not loaded");
      const { error } = await elements.submit();
      return error?.message;
    },
    async pay(clientSecret, returnUrl, email) {
      if (!stripe || !elements) return unexpectedError("the card form has not loaded");
      const { error } = await stripe.confirmPayment({
        elements,
        clientSecret,
        confirmParams: { return_url: new URL(returnUrl, window.location.origin).href, receipt_email: email },
      });
      // Card and validation errors are Stripe's own words; anything else is unexpected.
      return error.type === "card_error" || error.type === "validation_error"
        ? (error.message ?? unexpectedError(error.type))
        : unexpectedError(error.message ?? error.type);
    },
  }));
  return <PaymentElement onReady={onReady} />;
}
