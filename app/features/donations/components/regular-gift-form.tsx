import { useRef, type FormEvent } from "react";
import { Link } from "react-router";
import { Field, FieldMessage } from "~/components/ui/field";
import { FormNotice } from "~/components/ui/form-notice";
import { GiftAidFields } from "~/components/payment/gift-aid-fields";
import { useFormFields } from "~/components/ui/use-form-fields";
import { unexpectedError } from "~/components/payment/card-form";
import { CardPayment, PaymentStartError, useCardPayment } from "~/components/payment/card-payment";
import { useProofOfWork } from "~/components/payment/proof-of-work";
import { postJson } from "~/lib/api-client";
import { formatPounds } from "~/lib/money";
import { amountParam, giftAidPence } from "../amount";
import { giftAidNamesFrom } from "../donor-names";
import {
  dayOfMonthWords,
  donationLimits,
  donationMessages,
  giftDays,
  regularGiftScope,
  validateRegularGift,
  type DonationErrors,
  type DonationField,
  type GiftAidScope,
  type OwnGiftAttempt,
  type PayBy,
  type StartedRegularGift,
} from "../schema";

interface RegularGiftFormProps {
  amountPence: number;
  /** The day offered first: today's, or the 28th at the end of a long month. */
  suggestedDay: number;
  charityName: string;
  provider: "offline" | "stripe";
  publishableKey?: string;
  /** How the donor chose to pay (`?pay=`), and whether Direct Debit is offered at all (decision 092). */
  payBy?: PayBy;
  bacsOffered?: boolean;
}

type Values = Omit<Record<DonationField, string>, "giftAid" | "amount" | "scope"> & {
  giftAid: boolean;
  scope: GiftAidScope;
  dayOfMonth: string;
};
type GiftField = DonationField | "dayOfMonth";
type Errors = DonationErrors & { dayOfMonth?: string };

/** Where the provider sends the donor after the first payment: /payment again, with the gift's id. */
export function regularGiftReturnUrl(amountPence: number, regularGiftId: string) {
  return `/payment?${new URLSearchParams({ amount: amountParam(amountPence), give: "monthly", gift: regularGiftId }).toString()}`;
}

/** The monthly form for an amount, paid by card or by Direct Debit: a link, so the choice needs no JavaScript. */
export function payByPath(amountPence: number, payBy: PayBy) {
  return `/payment?${new URLSearchParams({ amount: amountParam(amountPence), give: "monthly", ...(payBy === "direct-debit" && { pay: payBy }) }).toString()}`;
}

const days = Array.from({ length: giftDays.last - giftDays.first + 1 }, (_, i) => giftDays.first + i);

/**
 * The monthly gift form (decision 089): the amount chosen, the day of the month, the donor's name
 * and e-mail, HMRC's enduring Gift Aid declaration if they tick it, and the card that pays the first
 * month now and later months on their day. The server checks everything again.
 */
export function RegularGiftForm({
  amountPence,
  suggestedDay,
  charityName,
  provider,
  publishableKey,
  payBy = "card",
  bacsOffered = false,
}: RegularGiftFormProps) {
  const directDebit = payBy === "direct-debit" && bacsOffered;
  const { values, change, errors, setErrors, hasErrors, headingRef } = useFormFields<Values, GiftField>({
    name: "",
    email: "",
    giftAid: false,
    firstName: "",
    surname: "",
    houseNameOrNumber: "",
    postcode: "",
    scope: regularGiftScope,
    dayOfMonth: String(suggestedDay),
  });
  const payment = useCardPayment();
  const proofOfWork = useProofOfWork();
  const previousAttempt = useRef<OwnGiftAttempt | undefined>(undefined);
  const extraPence = giftAidPence(amountPence);
  const typedByDonor = useRef({ firstName: false, surname: false });

  function changeName(name: string) {
    change("name", name);
    const names = giftAidNamesFrom(name);
    for (const field of ["firstName", "surname"] as const) {
      if (!typedByDonor.current[field]) change(field, names[field]);
    }
  }

  const showErrors = (found: Errors) => setErrors(found);

  async function give(submitEvent: FormEvent<HTMLFormElement>) {
    submitEvent.preventDefault();
    if (payment.submitting || !payment.ready) return;
    payment.setError(null);
    const form = { ...values, amount: amountParam(amountPence) };
    const validation = validateRegularGift(form);
    if (!validation.ok) return showErrors(validation.errors);
    showErrors({});
    await payment.pay(async () => {
      const body = { ...form, payBy: directDebit ? "direct-debit" : "card", replaces: previousAttempt.current };
      let answer = await postJson<StartedRegularGift>("/api/regular-gifts", body);
      // During a spike of payments the server asks for a moment's proof of work first.
      if (!answer.ok && answer.code === "challenge-required") {
        const challenge = await proofOfWork.solve().catch(() => {
          throw new PaymentStartError(answer.ok ? "" : answer.error);
        });
        answer = await postJson<StartedRegularGift>("/api/regular-gifts", { ...body, challenge });
      }
      if (!answer.ok) {
        if (answer.fields) return void showErrors(answer.fields as Errors);
        throw new PaymentStartError(answer.code === "too-many-requests" ? answer.error : unexpectedError(answer.error));
      }
      previousAttempt.current = { regularGiftId: answer.data.regularGiftId, clientSecret: answer.data.clientSecret };
      return {
        clientSecret: answer.data.clientSecret,
        returnUrl: regularGiftReturnUrl(amountPence, answer.data.regularGiftId),
        email: validation.data.email,
      };
    });
  }

  const day = Number(values.dayOfMonth) || suggestedDay;
  return (
    <div className="booking-layout">
      <section className="booking-overview" aria-labelledby="gift-overview">
        <h2 id="gift-overview">Your monthly gift</h2>
        <dl aria-live="polite">
          <dt>Every month</dt>
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
        {directDebit ? (
          <p>
            The first payment is collected by Direct Debit once your bank has set it up, about a week from today; then{" "}
            {formatPounds(amountPence)} on {dayOfMonthWords(day)} of each month until you cancel. We e-mail you the
            dates first, and every receipt has a private link to your gift.
          </p>
        ) : (
          <p>
            The first payment is taken today; then {formatPounds(amountPence)} on {dayOfMonthWords(day)} of each month
            until you cancel. Every receipt has a private link to your gift.
          </p>
        )}
        <p>
          <Link to="/payment?give=monthly">Change amount</Link>
        </p>
      </section>
      <form className="form" noValidate onSubmit={give} aria-labelledby="giver-details">
        <h2 id="giver-details" ref={headingRef} tabIndex={-1}>
          Your details
        </h2>
        {hasErrors ? <FormNotice ok={false}>{donationMessages.summary}</FormNotice> : null}
        <FieldMessage
          announce
          message={
            errors.amount ? (
              <>
                {errors.amount} <Link to="/payment?give=monthly">Choose another amount</Link>
              </>
            ) : null
          }
        />
        <Field
          id="gift-day"
          label="Day of the month"
          hint="Later payments are taken on this day each month (1 to 28, so every month has it)."
          select={{
            name: "dayOfMonth",
            className: "gift-day",
            value: values.dayOfMonth,
            onChange: (event) => change("dayOfMonth", event.target.value),
          }}
          error={errors.dayOfMonth}
        >
          {days.map((d) => (
            <option key={d} value={String(d)}>
              {d}
            </option>
          ))}
        </Field>
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
          onValue={(field, value) => {
            if (field === "firstName" || field === "surname") typedByDonor.current[field] = value.trim() !== "";
            change(field, value);
          }}
          onScope={() => undefined}
        />
        {proofOfWork.element}
        {bacsOffered ? (
          <nav className="how-often pay-by" aria-label="Pay by">
            <Link
              to={payByPath(amountPence, "card")}
              className="how-often-choice"
              aria-current={directDebit ? undefined : "page"}
              preventScrollReset
            >
              Card
            </Link>
            <Link
              to={payByPath(amountPence, "direct-debit")}
              className="how-often-choice"
              aria-current={directDebit ? "page" : undefined}
              preventScrollReset
            >
              Direct Debit
            </Link>
          </nav>
        ) : null}
        <CardPayment
          payment={payment}
          provider={provider}
          publishableKey={publishableKey}
          amountPence={amountPence}
          monthly
          {...(directDebit && { directDebit: { charityName } })}
        />
      </form>
    </div>
  );
}
