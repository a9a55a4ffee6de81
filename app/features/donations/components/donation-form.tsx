import { useRef, type FormEvent } from "react";
import { Link } from "react-router";
import { Field, FieldMessage } from "~/components/ui/field";
import { FormNotice } from "~/components/ui/form-notice";
import { GiftAidFields } from "~/components/payment/gift-aid-fields";
import { useFormFields } from "~/components/ui/use-form-fields";
import { unexpectedError } from "~/components/payment/card-form";
import { CardPayment, PaymentStartError, useCardPayment } from "~/components/payment/card-payment";
import { useProofOfWork } from "~/components/payment/proof-of-work";
import { formatPounds } from "~/lib/money";
import { amountParam, giftAidPence } from "../amount";
import { giftAidNamesFrom } from "../donor-names";
import {
  donationLimits,
  donationMessages,
  validateDonation,
  type DonationErrors,
  type DonationField,
  type GiftAidScope,
  type OwnDonationAttempt,
  type StartedDonation,
} from "../schema";
import { postJson } from "~/lib/api-client";

interface DonationFormProps {
  amountPence: number;
  charityName: string;
  provider: "offline" | "stripe";
  publishableKey?: string;
  /** Where the donor came from (`event:<id>`, decision 095), sent with the donation. */
  from?: string;
}

// One of the scopes is always chosen (the first by default), so the scope never needs a message.
type Values = Omit<Record<DonationField, string>, "giftAid" | "amount" | "scope"> & {
  giftAid: boolean;
  scope: GiftAidScope;
};

const empty: Values = {
  name: "",
  email: "",
  giftAid: false,
  firstName: "",
  surname: "",
  houseNameOrNumber: "",
  postcode: "",
  scope: "this-donation",
};

/** Where the provider sends the donor after paying: this page again, which then shows the thank-you view. */
export function donationReturnUrl(amountPence: number, donationId: string) {
  return `/payment?${new URLSearchParams({ amount: amountParam(amountPence), donation: donationId }).toString()}`;
}

/**
 * The donation form: the amount chosen, the donor's name and e-mail for the receipt, an optional
 * Gift Aid declaration in HMRC's words, and the card. The server checks everything again.
 */
export function DonationForm({ amountPence, charityName, provider, publishableKey, from }: DonationFormProps) {
  const { values, change, errors, setErrors, hasErrors, headingRef } = useFormFields<Values, DonationField>(empty);
  const payment = useCardPayment();
  const proofOfWork = useProofOfWork();
  const previousAttempt = useRef<OwnDonationAttempt | undefined>(undefined);
  const extraPence = giftAidPence(amountPence);
  // Gift Aid's first name and surname follow Name until the donor types in them; emptied, they follow it again.
  const typedByDonor = useRef({ firstName: false, surname: false });

  function changeName(name: string) {
    change("name", name);
    const names = giftAidNamesFrom(name);
    for (const field of ["firstName", "surname"] as const) {
      if (!typedByDonor.current[field]) change(field, names[field]);
    }
  }

  function changeGiftAidName(field: "firstName" | "surname", value: string) {
    typedByDonor.current[field] = value.trim() !== "";
    change(field, value);
  }

  async function donate(submitEvent: FormEvent<HTMLFormElement>) {
    submitEvent.preventDefault();
    if (payment.submitting || !payment.ready) return;
    payment.setError(null);
    const form = { ...values, amount: amountParam(amountPence) };
    const validation = validateDonation(form);
    if (!validation.ok) return setErrors(validation.errors);
    setErrors({});
    await payment.pay(async () => {
      const body = { ...form, replaces: previousAttempt.current, ...(from && { from }) };
      let answer = await postJson<StartedDonation>("/api/donations", body);
      // During a spike of payments the server asks for a moment's proof of work first.
      if (!answer.ok && answer.code === "challenge-required") {
        const challenge = await proofOfWork.solve().catch(() => {
          throw new PaymentStartError(answer.ok ? "" : answer.error);
        });
        answer = await postJson<StartedDonation>("/api/donations", { ...body, challenge });
      }
      if (!answer.ok) {
        if (answer.fields) return void setErrors(answer.fields as DonationErrors);
        throw new PaymentStartError(answer.code === "too-many-requests" ? answer.error : unexpectedError(answer.error));
      }
      const started = answer.data;
      previousAttempt.current = { donationId: started.donationId, clientSecret: started.clientSecret };
      return {
        clientSecret: started.clientSecret,
        returnUrl: donationReturnUrl(amountPence, started.donationId),
        email: validation.data.email,
      };
    });
  }

  return (
    <div className="booking-layout">
      <section className="booking-overview" aria-labelledby="donation-overview">
        <h2 id="donation-overview">Your donation</h2>
        <dl aria-live="polite">
          <dt>Donation</dt>
          <dd>{formatPounds(amountPence)}</dd>
          {values.giftAid ? (
            <>
              <dt>Gift Aid from HMRC</dt>
              <dd>{formatPounds(extraPence)}</dd>
            </>
          ) : null}
          <dt className="total">Worth to the Trust</dt>
          <dd className="total">{formatPounds(amountPence + (values.giftAid ? extraPence : 0))}</dd>
        </dl>
        <p>
          <Link to="/payment">Change amount</Link>
        </p>
      </section>
      <form className="form" noValidate onSubmit={donate} aria-labelledby="donor-details">
        <h2 id="donor-details" ref={headingRef} tabIndex={-1}>
          Your details
        </h2>
        {hasErrors ? <FormNotice ok={false}>{donationMessages.summary}</FormNotice> : null}
        {/* The amount comes from the page's address: its message has the way back to choosing one. */}
        <FieldMessage
          announce
          message={
            errors.amount ? (
              <>
                {errors.amount} <Link to="/payment">Choose another amount</Link>
              </>
            ) : null
          }
        />
        <Field
          id="donor-name"
          label="Name"
          input={{
            name: "name",
            autoComplete: "name",
            value: values.name,
            maxLength: donationLimits.name,
            required: true,
          }}
          error={errors.name}
          onValue={changeName}
        />
        <Field
          id="donor-email"
          label="Email"
          input={{
            name: "email",
            type: "email",
            autoComplete: "email",
            value: values.email,
            maxLength: donationLimits.email,
            required: true,
          }}
          error={errors.email}
          onValue={(v) => change("email", v)}
        />
        <GiftAidFields
          values={values}
          errors={errors}
          amountPence={amountPence}
          charityName={charityName}
          onTick={(ticked) => change("giftAid", ticked)}
          onValue={(field, value) =>
            field === "firstName" || field === "surname" ? changeGiftAidName(field, value) : change(field, value)
          }
          onScope={(scope) => change("scope", scope)}
        />
        {proofOfWork.element}
        <CardPayment payment={payment} provider={provider} publishableKey={publishableKey} amountPence={amountPence} />
      </form>
    </div>
  );
}
