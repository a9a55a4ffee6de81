import { useEffect, useImperativeHandle, useState, type Ref } from "react";
import { Field } from "~/components/ui/field";
import { cardProblem } from "~/lib/test-cards";
import { unexpectedError, type CardFormHandle } from "./card-form";

/** The offline test provider's card form: Stripe's test cards, no real money. */
export function OfflineCardForm({ ref, onReady }: { ref: Ref<CardFormHandle>; onReady(): void }) {
  const [card, setCard] = useState({ number: "", expiry: "", cvc: "" });
  useEffect(() => onReady(), [onReady]);
  useImperativeHandle(ref, () => ({
    async check() {
      // eslint-disable-next-line no-restricted-syntax -- a first check in the browser, by the visitor's clock; the server checks again by the site's
      return cardProblem(card, new Date());
    },
    async pay(clientSecret, returnUrl) {
      const response = await fetch("/api/payments/offline/confirm", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ clientSecret, card }),
      });
      const outcome = (await response.json().catch(() => ({}))) as { status?: string; error?: string };
      if (outcome.error) return outcome.error;
      if (!response.ok) return unexpectedError(`the payment could not be completed (${response.status})`);
      window.location.assign(returnUrl);
      return new Promise<never>(() => {});
    },
  }));
  return (
    <>
      <p className="test-banner">
        Test payments: no real money is charged. Use card <code>4242 4242 4242 4242</code> (succeeds),{" "}
        <code>4000 0000 0000 0002</code> (declined) or <code>4000 0000 0000 9995</code> (insufficient funds), any future
        expiry date and any 3-digit security code. <code>4000 0000 0000 0341</code> is declined here too (saved as a
        monthly gift's new card, every payment on it fails).
      </p>
      <div className="card-fields">
        <CardField
          label="Card number"
          name="cardnumber"
          autoComplete="cc-number"
          placeholder="1234 1234 1234 1234"
          value={card.number}
          onChange={(number) => setCard((c) => ({ ...c, number }))}
        />
        <CardField
          label="Expiration date"
          name="exp-date"
          autoComplete="cc-exp"
          placeholder="MM / YY"
          value={card.expiry}
          onChange={(expiry) => setCard((c) => ({ ...c, expiry }))}
        />
        <CardField
          label="Security code"
          name="cvc"
          autoComplete="cc-csc"
          placeholder="CVC"
          value={card.cvc}
          onChange={(cvc) => setCard((c) => ({ ...c, cvc }))}
        />
      </div>
    </>
  );
}

function CardField(props: {
  label: string;
  name: string;
  autoComplete: string;
  placeholder: string;
  value: string;
  onChange(value: string): void;
}) {
  return (
    <Field
      id={`card-${props.name}`}
      label={props.label}
      input={{
        name: props.name,
        inputMode: "numeric",
        autoComplete: props.autoComplete,
        placeholder: props.placeholder,
        value: props.value,
        maxLength: 23,
      }}
      onValue={props.onChange}
    />
  );
}
