import type { Route } from "./+types/giving.token";
import { ErrorPage } from "~/components/layout/error-page";
import { giftByLink } from "~/features/donations/regular-gifts.server";
import { dayOfMonthWords, regularGiftStatusLabels } from "~/features/donations/schema";
import { pageWork } from "~/infra/http/page.server";
import { monthInWords } from "~/lib/billing-month";
import { londonDate } from "~/lib/london-time";
import { formatPounds } from "~/lib/money";
import { pageMeta } from "~/lib/page-meta";

// /giving/<token>: a donor's private link to their monthly gift, from any of its receipts
// (docs/decisions/089-monthly-gifts.md). It says which gift it is, how it stands and the months
// paid; changing the gift from here comes next. An unknown or expired link says so, the same way.
export const loader = pageWork("A donor's monthly gift page", async ({ params, context }: Route.LoaderArgs) => {
  const { services } = context;
  const gift = await giftByLink(services.db, params.token.slice(0, 200), services.clock.now());
  const { site } = await services.content();
  return {
    email: site.email,
    gift: gift && {
      amountPence: gift.amountPence,
      dayOfMonth: gift.dayOfMonth,
      status: gift.status,
      started: londonDate(gift.startedAt),
      giftAid: gift.giftAid,
      payments: gift.payments.map((p) => ({ month: p.month, amountPence: p.amountPence, paid: londonDate(p.paidAt) })),
    },
  };
});

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

export default function Giving({ loaderData }: Route.ComponentProps) {
  const { gift, email } = loaderData;
  return (
    <main id="main" className="page narrow">
      <h1>Your monthly gift</h1>
      {gift ? (
        <>
          <dl className="gift-facts">
            <dt>Amount</dt>
            <dd>{formatPounds(gift.amountPence)} a month</dd>
            <dt>Taken on</dt>
            <dd>{dayOfMonthWords(gift.dayOfMonth)} of each month</dd>
            <dt>State</dt>
            <dd>{regularGiftStatusLabels[gift.status]}</dd>
            <dt>Started</dt>
            <dd>{gift.started}</dd>
            <dt>Gift Aid</dt>
            <dd>{gift.giftAid ? "Declared" : "Not declared"}</dd>
          </dl>
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
            To change or cancel your gift, please contact us at <a href={`mailto:${email}`}>{email}</a>.
          </p>
        </>
      ) : (
        <p>
          This link has expired or is not right. Every receipt of your monthly gift brings a fresh one; or contact us at{" "}
          <a href={`mailto:${email}`}>{email}</a>.
        </p>
      )}
    </main>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
