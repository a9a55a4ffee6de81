import { useState, type FormEvent } from "react";
import { Form, Link, useNavigate } from "react-router";
import { Field } from "~/components/ui/field";
import { amountParam, parseDonationAmount } from "../amount";

/**
 * Where a chosen amount goes: the donation page with the amount in the URL (and in navigation
 * state), and `give=monthly` for a monthly gift (decision 089).
 */
export function donationPath(pence: number, monthly = false, from?: string) {
  return `/payment?amount=${amountParam(pence)}${monthly ? "&give=monthly" : ""}${from ? `&from=${encodeURIComponent(from)}` : ""}`;
}

interface AmountChooserProps {
  /** Makes ids unique on the page. */
  id: string;
  title: string;
  intro?: string;
  /** Preset amounts in whole pounds, from the page content. */
  presets: number[];
  /** What the visitor typed before (a reload of /payment?amount=...), and what was wrong with it. */
  initialAmount?: string;
  initialError?: string;
  /** Choosing for a monthly gift: every choice keeps `give=monthly`. */
  monthly?: boolean;
  /** Where the donor came from (`event:<id>`, an event's thank-you: decision 095): every choice keeps it. */
  from?: string;
}

/**
 * The donation block: preset amounts and a custom amount in pounds and pence (£1 to £10,000).
 * Each leads to /payment?amount=...; without JavaScript the custom amount is a plain GET form that
 * the page checks on the server with the same rule.
 */
export function AmountChooser({
  id,
  title,
  intro,
  presets,
  initialAmount = "",
  initialError,
  monthly = false,
  from,
}: AmountChooserProps) {
  const navigate = useNavigate();
  const [amount, setAmount] = useState(initialAmount);
  const [error, setError] = useState(initialError);

  function choose(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = parseDonationAmount(amount);
    if (!parsed.ok) return setError(parsed.message);
    void navigate(donationPath(parsed.pence, monthly, from), { state: { amountPence: parsed.pence } });
  }

  return (
    <section className="donation-block" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      {intro ? <p>{intro}</p> : null}
      <ul className="amount-presets" aria-label="Choose an amount">
        {presets.map((pounds) => (
          // Presets are whole pounds: £5, £1,000.
          <li key={pounds}>
            <Link
              className="button button-donate"
              to={donationPath(pounds * 100, monthly, from)}
              state={{ amountPence: pounds * 100 }}
              aria-label={`${monthly ? "Give" : "Donate"} £${pounds.toLocaleString("en-GB")}${monthly ? " a month" : ""}`}
            >
              £{pounds.toLocaleString("en-GB")}
            </Link>
          </li>
        ))}
      </ul>
      <Form method="get" action="/payment" className="amount-custom" noValidate onSubmit={choose}>
        {monthly ? <input type="hidden" name="give" value="monthly" /> : null}
        {from ? <input type="hidden" name="from" value={from} /> : null}
        <Field
          id={`${id}-amount`}
          label="Other amount (£)"
          input={{ name: "amount", inputMode: "decimal", value: amount, maxLength: 12, required: true }}
          error={error}
          onValue={(value) => {
            setAmount(value);
            setError(undefined);
          }}
        />
        <button type="submit" className="button button-secondary">
          Continue
        </button>
      </Form>
    </section>
  );
}
