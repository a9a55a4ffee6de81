import { lazy, Suspense } from "react";
import { Form, Link, redirect, useSubmit } from "react-router";
import type { Route } from "./+types/giving.token";
import { ErrorPage } from "~/components/layout/error-page";
import { Field, FieldGroup } from "~/components/ui/field";
import { FormNotice } from "~/components/ui/form-notice";
import { useNoticeFocus } from "~/components/ui/use-notice-focus";
import {
  cancelGiftByDonor,
  changeGiftAmount,
  changeGiftBank,
  changeGiftCard,
  finishGiftBankChange,
  startGiftBankChange,
  finishGiftCardChange,
  startGiftCardChange,
  changeGiftDay,
  declareGiftAid,
  giftPage,
  pauseGift,
  resumeGift,
  withdrawGiftAid,
} from "~/features/donations/gift-changes.server";
import {
  dayOfMonthWords,
  declarationWording,
  giftDays,
  longestPause,
  giftStatusLabel,
  regularGiftScope,
} from "~/features/donations/schema";
import { BankFields } from "~/components/payment/offline-bank-form";
import { DirectDebitTerms } from "~/components/payment/direct-debit-terms";
import { answerForm, formText, typedValues } from "~/infra/http/form-action.server";
import { publicOrigin } from "~/infra/http/public-origin.server";
import { maskedAccount, sortCodeWords } from "~/lib/bacs";
import { pageWork } from "~/infra/http/page.server";
import { monthInWords } from "~/lib/billing-month";
import { amountParam } from "~/lib/donation-amount";
import { giftAidLimits, giftAidNamesFrom } from "~/lib/gift-aid-declaration";
import { londonDate, londonDayWords } from "~/lib/london-time";
import { formatPounds } from "~/lib/money";
import { pageMeta } from "~/lib/page-meta";

// /giving/<token>: a donor's private link to their monthly gift, from any of its receipts or from
// /giving (docs/decisions/090-donors-manage-their-gift.md). Opening it changes nothing (mail
// programs open links to scan them); each of its forms posts here and works without JavaScript:
// the amount and the day, a pause or its end, Gift Aid, and a cancellation asked once (`?confirm=
// cancel` shows the question), and a new card (the offline provider's test card form; on Stripe the
// Payment Element confirms a SetupIntent, which the server saves once Stripe says it is confirmed).
// An unknown or expired link says so, and where to get a fresh one.

// Stripe's code is loaded only where Stripe takes the payments.
const StripeCardChange = lazy(() => import("~/features/donations/components/stripe-card-change"));

export const loader = pageWork(
  "A donor's monthly gift page",
  async ({ params, context, request }: Route.LoaderArgs) => {
    const { services } = context;
    const gift = await giftPage(services.db, params.token.slice(0, 200), services.clock.now());
    const { site } = await services.content();
    const search = new URL(request.url).searchParams;
    const confirming = search.get("confirm") === "cancel";
    // Back from the card's bank check: the page asks for the card to be saved (a GET saves nothing).
    const setupIntent = search.get("setup_intent") ?? "";
    // Back from Stripe Checkout with new bank details: the page asks for them to be saved.
    const bankSession = search.get("bank_session") ?? "";
    return {
      returnedBankSession: /^cs_\w{1,200}$/.test(bankSession) ? bankSession : null,
      provider: services.payments.name,
      publishableKey: services.payments.publishableKey ?? null,
      returnedSetup: /^seti_\w{1,100}$/.test(setupIntent) ? setupIntent : null,
      email: site.email,
      charityName: site.charityName,
      token: gift ? params.token : "",
      confirmCancel: confirming && gift !== undefined && gift.status !== "cancelled",
      gift: gift && {
        amountPence: gift.amountPence,
        dayOfMonth: gift.dayOfMonth,
        status: gift.status,
        started: londonDate(gift.startedAt),
        nextPayment: gift.nextPaymentAt ? londonDayWords(gift.nextPaymentAt) : null,
        resumes: gift.resumesAt ? londonDayWords(gift.resumesAt) : null,
        giftAid: gift.giftAid,
        giftAidFromNext: gift.giftAidFromNext,
        names: giftAidNamesFrom(gift.donorName),
        paymentMethod: gift.paymentMethod,
        statusLabel: giftStatusLabel(gift.status, gift.paymentMethod, gift.bank !== null),
        bank: gift.bank && {
          accountName: gift.bank.accountName,
          account: maskedAccount(gift.bank.last4),
          sortCode: sortCodeWords(gift.bank.sortCode),
          reference: gift.bank.reference,
        },
        payments: gift.payments.map((p) => ({
          month: p.month,
          amountPence: p.amountPence,
          paid: londonDate(p.paidAt),
        })),
      },
    };
  },
);

export const action = pageWork(
  "Changing a monthly gift by its private link",
  async ({ request, context, params }: Route.ActionArgs) => {
    const { services } = context;
    const token = params.token.slice(0, 200);
    const here = `${publicOrigin(services.config, request)}/giving/${token}`;
    return answerForm(
      request,
      {
        amount: async (form) => changeGiftAmount(services, token, { amount: formText(form, "amount", 30) }),
        day: async (form) => changeGiftDay(services, token, { dayOfMonth: formText(form, "dayOfMonth", 10) }),
        pause: async (form) => pauseGift(services, token, { months: formText(form, "months", 10) }),
        resume: async () => resumeGift(services, token),
        cancel: async () => cancelGiftByDonor(services, token),
        declare: async (form) =>
          declareGiftAid(services, token, {
            firstName: formText(form, "firstName", 200),
            surname: formText(form, "surname", 200),
            houseNameOrNumber: formText(form, "houseNameOrNumber", 200),
            postcode: formText(form, "postcode", 40),
          }),
        withdraw: async () => withdrawGiftAid(services, token),
        card: async (form) =>
          changeGiftCard(services, token, {
            number: formText(form, "cardnumber", 40),
            expiry: formText(form, "exp-date", 20),
            cvc: formText(form, "cvc", 10),
          }),
        "card-start": async () => {
          const { setupId, clientSecret } = await startGiftCardChange(services, token);
          const values: Record<string, string> = { setupId, clientSecret };
          return { message: "Enter your new card's details.", values };
        },
        "card-finish": async (form) => finishGiftCardChange(services, token, formText(form, "setup", 120)),
        // A Direct Debit gift's new bank details (decision 092): the offline bank form, or Stripe Checkout.
        bank: async (form) =>
          changeGiftBank(services, token, {
            accountName: formText(form, "accountName", 200),
            sortCode: formText(form, "sortCode", 20),
            accountNumber: formText(form, "accountNumber", 20),
            confirmed: formText(form, "confirmed", 10),
          }),
        "bank-start": async () => redirect((await startGiftBankChange(services, token, here)).url),
        "bank-finish": async (form) => finishGiftBankChange(services, token, formText(form, "session", 250)),
      },
      // What was typed comes back after a refusal: never the account number.
      {
        values: (form) =>
          Object.fromEntries(Object.entries(typedValues(form)).filter(([name]) => name !== "accountNumber")),
      },
    );
  },
);

// The token is in the address: never kept by a cache, never sent on as a Referer, never indexed.
export function headers() {
  return {
    "X-Robots-Tag": "noindex, nofollow",
    "Cache-Control": "private, no-store",
    "Referrer-Policy": "no-referrer",
  };
}

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta("Your monthly gift", "Your monthly gift.", { site: matches[0].loaderData?.share, path: "/giving" }),
  // The link is the donor's alone.
  { name: "robots", content: "noindex, nofollow" },
];

const days = Array.from({ length: giftDays.last - giftDays.first + 1 }, (_, i) => giftDays.first + i);

export default function Giving({ loaderData, actionData }: Route.ComponentProps) {
  const {
    gift,
    email,
    token,
    confirmCancel,
    charityName,
    provider,
    publishableKey,
    returnedSetup,
    returnedBankSession,
  } = loaderData;
  const notice = useNoticeFocus(actionData);
  const submit = useSubmit();
  const setup = actionData?.ok && actionData.intent === "card-start" ? actionData.values : undefined;
  const action = `/giving/${token}`;
  /** A refusal's message for a field of the form `intent`, and what was typed in it. */
  const errorOf = (intent: string, field: string) =>
    actionData && !actionData.ok && actionData.intent === intent ? actionData.fields?.[field] : undefined;
  const typed = (intent: string, field: string, otherwise: string) =>
    actionData && !actionData.ok && actionData.intent === intent
      ? (actionData.values?.[field] ?? otherwise)
      : otherwise;
  const running = gift && gift.status !== "cancelled" && gift.status !== "incomplete";
  return (
    <main id="main" className="page narrow">
      <h1>Your monthly gift</h1>
      {actionData ? (
        <FormNotice ok={actionData.ok} focusRef={notice}>
          {actionData.message}
        </FormNotice>
      ) : null}
      {!gift ? (
        <p>
          This link has expired or is not right. <Link to="/giving">Ask for a fresh link</Link> with your e-mail
          address, or contact us at <a href={`mailto:${email}`}>{email}</a>.
        </p>
      ) : confirmCancel ? (
        <section aria-labelledby="cancel-heading">
          <h2 id="cancel-heading">Cancel your monthly gift?</h2>
          <p>
            No further payment of {formatPounds(gift.amountPence)} will be taken. What you have given stays given. You
            can start a new gift at any time.
          </p>
          <Form method="post" action={action} className="form">
            <input type="hidden" name="intent" value="cancel" />
            <div className="form-actions">
              <button type="submit" className="button danger">
                Yes, cancel my gift
              </button>
              <Link to={action} className="button secondary">
                No, keep my gift
              </Link>
            </div>
          </Form>
        </section>
      ) : (
        <>
          <dl className="gift-facts">
            <dt>Amount</dt>
            <dd>{formatPounds(gift.amountPence)} a month</dd>
            <dt>Taken on</dt>
            <dd>{dayOfMonthWords(gift.dayOfMonth)} of each month</dd>
            <dt>State</dt>
            <dd>
              {gift.statusLabel}
              {gift.resumes ? `: it starts again on ${gift.resumes}` : null}
            </dd>
            {gift.bank ? (
              <>
                <dt>Paid by</dt>
                <dd>
                  Direct Debit from account {gift.bank.account}, sort code {gift.bank.sortCode} (Instruction{" "}
                  {gift.bank.reference})
                </dd>
              </>
            ) : null}
            {gift.nextPayment ? (
              <>
                <dt>Next payment</dt>
                <dd>{gift.nextPayment}</dd>
              </>
            ) : null}
            <dt>Started</dt>
            <dd>{gift.started}</dd>
            <dt>Gift Aid</dt>
            <dd>
              {gift.giftAid ? (gift.giftAidFromNext ? "Declared, from your next payment" : "Declared") : "Not declared"}
            </dd>
          </dl>

          {running ? (
            <>
              <section aria-labelledby="amount-heading">
                <h2 id="amount-heading">Change the amount</h2>
                <Form method="post" action={action} className="form" noValidate>
                  <input type="hidden" name="intent" value="amount" />
                  <Field
                    id="gift-amount"
                    label="New amount each month (£)"
                    hint={`From your next payment${gift.nextPayment ? `, on ${gift.nextPayment}` : ""}. Between £1 and £10,000.`}
                    input={{
                      name: "amount",
                      inputMode: "decimal",
                      autoComplete: "off",
                      maxLength: 12,
                      required: true,
                      defaultValue: typed("amount", "amount", amountParam(gift.amountPence)),
                    }}
                    error={errorOf("amount", "amount")}
                  />
                  <button type="submit" className="button">
                    Change the amount
                  </button>
                </Form>
              </section>

              <section aria-labelledby="day-heading">
                <h2 id="day-heading">Change the day</h2>
                <Form method="post" action={action} className="form" noValidate>
                  <input type="hidden" name="intent" value="day" />
                  <Field
                    id="gift-day"
                    label="Day of the month"
                    hint="From your next payment not yet taken. Never two payments in one month."
                    select={{
                      name: "dayOfMonth",
                      defaultValue: typed("day", "dayOfMonth", String(gift.dayOfMonth)),
                    }}
                    error={errorOf("day", "dayOfMonth")}
                  >
                    {days.map((day) => (
                      <option key={day} value={day}>
                        {day}
                      </option>
                    ))}
                  </Field>
                  <button type="submit" className="button">
                    Change the day
                  </button>
                </Form>
              </section>

              <section aria-labelledby="pause-heading">
                <h2 id="pause-heading">{gift.status === "paused" ? "Your gift is paused" : "Pause your gift"}</h2>
                {gift.status === "paused" ? (
                  <Form method="post" action={action} className="form">
                    <input type="hidden" name="intent" value="resume" />
                    <p>
                      No payment is taken until {gift.resumes}, when your gift starts again by itself. You can start it
                      sooner.
                    </p>
                    <button type="submit" className="button">
                      Resume
                    </button>
                  </Form>
                ) : (
                  <Form method="post" action={action} className="form" noValidate>
                    <input type="hidden" name="intent" value="pause" />
                    <FieldGroup
                      id="gift-months"
                      legend="Pause for"
                      hint="No payment is taken in those months; your gift starts again by itself."
                      error={errorOf("pause", "months")}
                      className="radio-group"
                    >
                      {Array.from({ length: longestPause }, (_, i) => i + 1).map((months) => (
                        <div className="radio-field" key={months}>
                          <input
                            id={`gift-months-${months}`}
                            type="radio"
                            name="months"
                            value={months}
                            defaultChecked={typed("pause", "months", "1") === String(months)}
                          />
                          <label htmlFor={`gift-months-${months}`}>
                            {months} {months === 1 ? "month" : "months"}
                          </label>
                        </div>
                      ))}
                    </FieldGroup>
                    <button type="submit" className="button">
                      Pause my gift
                    </button>
                  </Form>
                )}
              </section>

              <section aria-labelledby="gift-aid-heading">
                <h2 id="gift-aid-heading">Gift Aid</h2>
                {gift.giftAid ? (
                  <Form method="post" action={action} className="form">
                    <input type="hidden" name="intent" value="withdraw" />
                    <p>
                      {charityName} claims Gift Aid on your gift. If you no longer pay enough UK tax, or no longer want
                      it, withdraw your declaration: later payments will not be claimed; earlier ones stay Gift Aided.
                    </p>
                    <button type="submit" className="button secondary">
                      Withdraw my Gift Aid declaration
                    </button>
                  </Form>
                ) : (
                  <Form method="post" action={action} className="form" noValidate>
                    <input type="hidden" name="intent" value="declare" />
                    <p>
                      If you are a UK taxpayer, Gift Aid lets {charityName} claim 25p from HMRC for every £1 you give,
                      at no extra cost to you, from your next payment.
                    </p>
                    <p id="gift-aid-declaration" className="declaration">
                      {declarationWording(regularGiftScope, gift.amountPence, charityName)}
                    </p>
                    <div className="field-pair">
                      {declarationField("firstName", "First name", "given-name", gift.names.firstName)}
                      {declarationField("surname", "Surname", "family-name", gift.names.surname)}
                    </div>
                    <div className="field-pair">
                      {declarationField("houseNameOrNumber", "House name or number", "address-line1", "")}
                      {declarationField("postcode", "Postcode", "postal-code", "")}
                    </div>
                    <button type="submit" className="button" aria-describedby="gift-aid-declaration">
                      Make this declaration
                    </button>
                  </Form>
                )}
              </section>

              {gift.paymentMethod === "bacs_debit" ? (
                <section aria-labelledby="bank-heading">
                  <h2 id="bank-heading">Change your bank details</h2>
                  {provider === "offline" ? (
                    <Form method="post" action={action} className="form" noValidate>
                      <input type="hidden" name="intent" value="bank" />
                      <p className="test-banner">
                        Test payments: no real money is collected. Use sort code <code>10-88-00</code> with account
                        number <code>00012345</code> (payments succeed) or <code>33333335</code> (payments fail).
                      </p>
                      <BankFields
                        values={{
                          accountName: typed("bank", "accountName", gift.bank?.accountName ?? ""),
                          sortCode: typed("bank", "sortCode", ""),
                          accountNumber: "",
                          confirmed: "",
                        }}
                        errors={{
                          accountName: errorOf("bank", "accountName"),
                          sortCode: errorOf("bank", "sortCode"),
                          accountNumber: errorOf("bank", "accountNumber"),
                          confirmed: errorOf("bank", "confirmed"),
                        }}
                      />
                      <DirectDebitTerms charityName={charityName} />
                      <button type="submit" className="button">
                        Save my new bank details
                      </button>
                    </Form>
                  ) : returnedBankSession ? (
                    <Form method="post" action={action} className="form">
                      <input type="hidden" name="intent" value="bank-finish" />
                      <input type="hidden" name="session" value={returnedBankSession} />
                      <p>Your new bank details are set up with our payment service.</p>
                      <button type="submit" className="button">
                        Save my new bank details
                      </button>
                    </Form>
                  ) : (
                    <Form method="post" action={action} className="form">
                      <input type="hidden" name="intent" value="bank-start" />
                      <p>
                        Your later payments are collected from the new account; the old Direct Debit is not used again.
                        You give the new details on our payment service Stripe&apos;s secure page, which brings you back
                        here.
                      </p>
                      <button type="submit" className="button">
                        Change my bank details
                      </button>
                    </Form>
                  )}
                </section>
              ) : (
                <section aria-labelledby="card-heading">
                  <h2 id="card-heading">Change your card</h2>
                  {provider === "offline" ? (
                    <Form method="post" action={action} className="form" noValidate>
                      <input type="hidden" name="intent" value="card" />
                      <p className="test-banner">
                        Test payments: no real money is charged. Use card <code>4242 4242 4242 4242</code> (succeeds) or{" "}
                        <code>4000 0000 0000 0002</code> (declined), any future expiry date and any 3-digit security
                        code. <code>4000 0000 0000 0341</code> is saved, but every later payment on it fails.
                      </p>
                      <div className="card-fields">
                        {cardField("cardnumber", "Card number", "cc-number", "1234 1234 1234 1234")}
                        {cardField("exp-date", "Expiration date", "cc-exp", "MM / YY")}
                        {cardField("cvc", "Security code", "cc-csc", "CVC")}
                      </div>
                      <button type="submit" className="button">
                        Save my new card
                      </button>
                    </Form>
                  ) : returnedSetup ? (
                    <Form method="post" action={action} className="form">
                      <input type="hidden" name="intent" value="card-finish" />
                      <input type="hidden" name="setup" value={returnedSetup} />
                      <p>Your bank has checked your new card.</p>
                      <button type="submit" className="button">
                        Save my new card
                      </button>
                    </Form>
                  ) : setup?.clientSecret && publishableKey ? (
                    <Suspense fallback={<p>Loading the card form…</p>}>
                      <StripeCardChange
                        publishableKey={publishableKey}
                        clientSecret={setup.clientSecret}
                        returnUrl={action}
                        onConfirmed={(setupId) =>
                          void submit({ intent: "card-finish", setup: setupId }, { method: "post", action })
                        }
                      />
                    </Suspense>
                  ) : (
                    <Form method="post" action={action} className="form">
                      <input type="hidden" name="intent" value="card-start" />
                      <p>Your later payments are taken from the new card; the old one is not used again.</p>
                      <button type="submit" className="button">
                        Change my card
                      </button>
                    </Form>
                  )}
                </section>
              )}

              <section aria-labelledby="cancel-heading">
                <h2 id="cancel-heading">Cancel your gift</h2>
                <p>
                  <Link to={`${action}?confirm=cancel`}>Cancel my monthly gift</Link>: we ask you once to be sure.
                </p>
              </section>
            </>
          ) : null}

          <h2>Payments</h2>
          {gift.payments.length ? (
            <ul>
              {gift.payments.map((p) => (
                <li key={p.month}>
                  {monthInWords(p.month)}: {formatPounds(p.amountPence)}, paid on {p.paid}
                </li>
              ))}
            </ul>
          ) : (
            <p>No payment has been taken yet.</p>
          )}
          <p>
            Questions about your gift? Contact us at <a href={`mailto:${email}`}>{email}</a>.
          </p>
        </>
      )}
    </main>
  );

  function cardField(
    name: "cardnumber" | "exp-date" | "cvc",
    label: string,
    autoComplete: string,
    placeholder: string,
  ) {
    return (
      <Field
        id={`card-${name}`}
        label={label}
        input={{ name, inputMode: "numeric", autoComplete, placeholder, maxLength: 23, defaultValue: "" }}
        error={errorOf("card", name)}
      />
    );
  }

  function declarationField(
    field: "firstName" | "surname" | "houseNameOrNumber" | "postcode",
    label: string,
    autoComplete: string,
    otherwise: string,
  ) {
    return (
      <Field
        id={`gift-aid-${field}`}
        label={label}
        input={{
          name: field,
          autoComplete,
          maxLength: giftAidLimits[field],
          required: true,
          defaultValue: typed("declare", field, otherwise),
        }}
        error={errorOf("declare", field)}
      />
    );
  }
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
