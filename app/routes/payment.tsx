import { useEffect, useRef } from "react";
import { Link, redirect } from "react-router";
import type { Route } from "./+types/payment";
import { ErrorPage } from "~/components/layout/error-page";
import { pageWork } from "~/infra/http/page.server";
import { publicOrigin } from "~/infra/http/public-origin.server";
import { Picture } from "~/components/ui/picture";
import { ShareLink } from "~/components/ui/share-link";
import { amountParam, donationSource, parseDonationAmount } from "~/features/donations/amount";
import { AmountChooser, donationPath } from "~/features/donations/components/amount-chooser";
import { DonationForm } from "~/features/donations/components/donation-form";
import { RegularGiftForm } from "~/features/donations/components/regular-gift-form";
import { regularGiftReturn } from "~/features/donations/regular-gifts.server";
import { donationReturn } from "~/features/donations/return.server";
import { dayOfMonthWords, giftDays, type PayBy } from "~/features/donations/schema";
import { londonDay, londonDayWords } from "~/lib/london-time";
import { formatPounds } from "~/lib/money";
import { pageMeta } from "~/lib/page-meta";

// /payment (the Donate page of docs/specification.md). Without an amount it offers the donation block; with
// ?amount= it shows the donation form for that amount (checked here, as the server checks it again);
// with &donation= (where the payment provider returns the donor) it asks the provider whether the
// payment succeeded and shows the thank-you view in place of the form.
export const loader = pageWork("The donation page", async ({ request, context }: Route.LoaderArgs) => {
  const params = new URL(request.url).searchParams;
  const { payment: content, site } = await context.services.content();
  // An event's thank-you links here with `from=event:<id>` (decision 095): kept to the donation.
  const fromParam = params.get("from") ?? "";
  const from = donationSource(fromParam) ? fromParam : undefined;
  const page = {
    content,
    charityName: site.charityName,
    email: site.email,
    provider: context.services.payments.name,
    publishableKey: context.services.payments.publishableKey,
    /** This page's public address, for the thank-you view's "tell a friend". */
    shareUrl: `${publicOrigin(context.services.config, request)}/payment`,
    from: from ?? null,
  };
  // Give once or Give monthly (decision 089): `give=monthly` in the address, so the choice is a
  // link that works without the page's scripts.
  const monthly = params.get("give") === "monthly";
  const giftId = params.get("gift");
  if (giftId) {
    return { ...page, monthly: true, view: await giftView(context.services, giftId) };
  }
  const donationId = params.get("donation");
  if (donationId) {
    return { ...page, monthly: false, view: await donationReturn(context.services, donationId) };
  }
  const amountText = params.get("amount");
  if (amountText === null) return { ...page, monthly, view: { kind: "choose" as const } };
  const amount = parseDonationAmount(amountText);
  if (!amount.ok) return { ...page, monthly, view: { kind: "choose" as const, amountText, error: amount.message } };
  // One address per amount (?amount=10 and ?amount=£10 become ?amount=10.00), whichever way it came.
  if (amountText !== amountParam(amount.pence)) throw redirect(donationPath(amount.pence, monthly, from));
  // The day a monthly gift is offered first: today's in London, or the 28th late in a long month.
  const suggestedDay = Math.min(Number(londonDay(context.services.clock.now()).slice(8, 10)), giftDays.last);
  // Card, or Bacs Direct Debit where the provider offers it (decision 092): `pay=direct-debit`.
  const bacsOffered = monthly && (await context.services.payments.bacsOffered());
  const payBy: PayBy = bacsOffered && params.get("pay") === "direct-debit" ? "direct-debit" : "card";
  return {
    ...page,
    monthly,
    view: { kind: "form" as const, amountPence: amount.pence, suggestedDay, payBy, bacsOffered },
  };
});

/** The donor back from paying the first month of a monthly gift: its thank-you, or how it stands. */
async function giftView(services: Parameters<typeof regularGiftReturn>[0], giftId: string) {
  const gift = await regularGiftReturn(services, giftId);
  if (gift.kind === "unknown") return { kind: "unknown" as const };
  if (gift.kind === "direct-debit") {
    return {
      kind: "direct-debit" as const,
      amountPence: gift.amountPence,
      giftAidPence: gift.giftAidPence,
      day: gift.dayOfMonth,
      first: londonDayWords(gift.firstCollectionAt),
      then: londonDayWords(gift.thenMonthlyFrom),
      noticeBySite: gift.noticeBySite,
    };
  }
  if (gift.kind === "waiting") {
    return {
      kind: "status" as const,
      status: "Your first payment has not been confirmed yet.",
      retry: false,
      amountPence: gift.amountPence,
    };
  }
  return {
    kind: "thanks" as const,
    amountPence: gift.amountPence,
    giftAidPence: gift.giftAidPence,
    monthly: { day: gift.dayOfMonth, next: londonDayWords(gift.nextPaymentAt) },
  };
}

export const meta: Route.MetaFunction = ({ data, location, matches }) => [
  ...pageMeta("Donate", data?.content.description, { site: matches[0].loaderData?.share, path: "/payment" }),
  // A donor's return link is theirs alone.
  ...(["donation", "gift"].some((name) => new URLSearchParams(location.search).has(name))
    ? [{ name: "robots", content: "noindex" }]
    : []),
];

export default function Payment({ loaderData }: Route.ComponentProps) {
  const { content, view, charityName, email, provider, publishableKey, shareUrl, monthly, from } = loaderData;
  const amountPence = view.kind === "form" ? view.amountPence : undefined;
  return (
    <main id="main" className="page">
      <h1>Donate</h1>
      {view.kind === "form" || view.kind === "choose" ? <HowOften monthly={monthly} amountPence={amountPence} /> : null}
      {view.kind === "direct-debit" ? (
        <DirectDebitSetUp {...view} charityName={charityName} />
      ) : view.kind === "thanks" ? (
        <ThankYou
          title={content.donationSuccessTitle}
          text={content.donationGratitudeText}
          image={content.paymentSuccessImage}
          amountPence={view.amountPence}
          giftAidPence={view.giftAidPence}
          charityName={charityName}
          shareUrl={shareUrl}
          monthly={"monthly" in view ? (view.monthly as { day: number; next: string }) : undefined}
        />
      ) : (
        <>
          <p className="lead donation-text">{content.donationText}</p>
          {view.kind === "unknown" ? (
            <p className="notice" role="status">
              We could not find this donation. If you have paid, please contact us at{" "}
              <a href={`mailto:${email}`}>{email}</a>.
            </p>
          ) : null}
          {view.kind === "status" && view.status ? (
            <p className="confirmation-status" role="status">
              {view.status}
            </p>
          ) : null}
          {view.kind === "form" && monthly ? (
            <RegularGiftForm
              amountPence={view.amountPence}
              suggestedDay={view.suggestedDay}
              charityName={charityName}
              provider={provider}
              publishableKey={publishableKey}
              payBy={view.payBy}
              bacsOffered={view.bacsOffered}
            />
          ) : view.kind === "form" || (view.kind === "status" && view.retry) ? (
            <DonationForm
              amountPence={view.amountPence}
              charityName={charityName}
              provider={provider}
              publishableKey={publishableKey}
              from={from ?? undefined}
            />
          ) : view.kind === "status" ? (
            <p>
              We will e-mail your receipt as soon as your payment completes. Questions? Contact us at{" "}
              <a href={`mailto:${email}`}>{email}</a>.
            </p>
          ) : (
            <AmountChooser
              // A new key when the URL's amount changes, so the field shows what the URL says.
              key={view.kind === "choose" ? (view.amountText ?? "") : "none"}
              id="donate"
              title="Choose an amount"
              presets={content.presetAmounts}
              initialAmount={view.kind === "choose" ? view.amountText : undefined}
              initialError={view.kind === "choose" ? view.error : undefined}
              monthly={monthly}
              from={from ?? undefined}
            />
          )}
        </>
      )}
    </main>
  );
}

/**
 * Give once or Give monthly: two links to this page, the one chosen marked as current, so the choice
 * works by keyboard and without JavaScript, and keeps the amount already chosen.
 */
function HowOften({ monthly, amountPence }: { monthly: boolean; amountPence: number | undefined }) {
  const to = (asMonthly: boolean) =>
    amountPence === undefined
      ? asMonthly
        ? "/payment?give=monthly"
        : "/payment"
      : donationPath(amountPence, asMonthly);
  return (
    <nav className="how-often" aria-label="How often to give">
      <Link to={to(false)} className="how-often-choice" aria-current={monthly ? undefined : "page"}>
        Give once
      </Link>
      <Link to={to(true)} className="how-often-choice" aria-current={monthly ? "page" : undefined}>
        Give monthly
      </Link>
    </nav>
  );
}

/** A Direct Debit gift whose bank details are in: its first collection is on its way (decision 092). */
function DirectDebitSetUp(props: {
  amountPence: number;
  giftAidPence: number | null;
  day: number;
  first: string;
  then: string;
  noticeBySite: boolean;
  charityName: string;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const amount = formatPounds(props.amountPence);
  return (
    <section className="donation-thanks" aria-labelledby="direct-debit-title">
      <h2 id="direct-debit-title" ref={heading} tabIndex={-1}>
        Thank you: your Direct Debit is set up
      </h2>
      <p>
        Your first payment of <strong>{amount}</strong> will be collected on or shortly after{" "}
        <strong>{props.first}</strong>. After that, {amount} is collected on {dayOfMonthWords(props.day)} of each month,
        starting on {props.then}, until you cancel.
        {props.giftAidPence !== null ? (
          <>
            {" "}
            With Gift Aid each payment is worth <strong>
              {formatPounds(props.amountPence + props.giftAidPence)}
            </strong>{" "}
            to the Trust.
          </>
        ) : null}
      </p>
      <p>
        {props.noticeBySite
          ? `The confirmation of your Direct Debit Instruction to ${props.charityName}, with these dates and the Direct Debit Guarantee, is on its way to you by e-mail. Please check the details in it.`
          : "The confirmation of your Direct Debit Instruction, with these dates and the Direct Debit Guarantee, is on its way to you by e-mail from our payment service, Stripe. Please check the details in it."}{" "}
        We e-mail your receipt, with a private link to your gift, once the first payment has been collected.
      </p>
      <p>
        <Link to="/">Back to the home page</Link>
      </p>
    </section>
  );
}

function ThankYou(props: {
  title: string;
  text: string;
  image: { src: string; alt: string };
  amountPence: number;
  giftAidPence: number | null;
  charityName: string;
  shareUrl: string;
  /** A monthly gift's day and next payment, for its thank-you. */
  monthly?: { day: number; next: string } | undefined;
}) {
  const invitation = `I have just given to ${props.charityName}, a small charity working with the village of Kilele in Tanzania. Would you like to give too?`;
  const heading = useRef<HTMLHeadingElement>(null);
  // After an in-app navigation, screen readers hear the outcome first.
  useEffect(() => heading.current?.focus(), []);
  return (
    <section className="donation-thanks" aria-labelledby="donation-thanks-title">
      <Picture image={props.image} sizes="12rem" width={240} height={240} className="success-image" priority />
      <h2 id="donation-thanks-title" ref={heading} tabIndex={-1}>
        {props.title}
      </h2>
      <p>{props.text}</p>
      <p>
        You gave <strong>{formatPounds(props.amountPence)}</strong>
        {props.monthly ? " as your first monthly payment" : null}
        {props.giftAidPence !== null ? (
          <>
            , and with Gift Aid it is worth <strong>{formatPounds(props.amountPence + props.giftAidPence)}</strong> to
            the Trust
          </>
        ) : null}
        .
      </p>
      {props.monthly ? (
        <p>
          Your next payment of {formatPounds(props.amountPence)} is taken on {props.monthly.next}, and then on{" "}
          {dayOfMonthWords(props.monthly.day)} of each month. We have e-mailed you a welcome with a private link to your
          gift.
        </p>
      ) : null}
      <section className="next-steps" aria-labelledby="next-steps-title">
        <h3 id="next-steps-title">What next?</h3>
        <ul>
          <li>
            <Link to="/fundraising">Come to one of our fundraising events</Link>
          </li>
          <li>
            <Link to="/volunteering">Volunteer with us</Link>
          </li>
          <li>
            <a
              href={`mailto:?${new URLSearchParams({
                subject: `Give to ${props.charityName}`,
                body: `${invitation}\n\n${props.shareUrl}`,
              })
                .toString()
                .replace(/\+/g, "%20")}`}
            >
              Tell a friend by e-mail
            </a>
          </li>
        </ul>
        <p className="next-steps-share">
          <ShareLink
            url={props.shareUrl}
            title={`Give to ${props.charityName}`}
            text={invitation}
            label="Share our Donate page"
          />
        </p>
      </section>
      <p>
        <Link to="/">Back to the home page</Link> · <Link to="/payment">Make another donation</Link>
      </p>
    </section>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
