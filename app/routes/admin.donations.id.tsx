import { Link } from "react-router";
import type { Route } from "./+types/admin.donations.id";
import { ErrorPage } from "~/components/layout/error-page";
import { FormNotice } from "~/components/ui/form-notice";
import { useNoticeFocus } from "~/components/ui/use-notice-focus";
import { TableScroll } from "~/components/ui/table-scroll";
import { CancelDeclarationForm, RefundDonationForm } from "~/features/donations/components/donation-actions";
import { refundDonation } from "~/features/donations/refunds.server";
import { giftAidScopeLabels } from "~/features/donations/schema";
import { cancelDeclaration, donationDetail } from "~/features/donations/staff-donations.server";
import { adminMeta } from "~/features/staff/components/admin-shell";
import { Breadcrumbs } from "~/features/staff/components/breadcrumbs";
import { requireStaffPage } from "~/features/staff/staff.server";
import { answerForm, formText } from "~/infra/http/form-action.server";
import { pageWork } from "~/infra/http/page.server";
import { AppError } from "~/lib/errors";
import { londonDayWords, londonWhen } from "~/lib/london-time";
import { formatPounds } from "~/lib/money";

// /admin/donations/:donationId: a donation, its Gift Aid declaration and refunds; Refund donation
// (exactly once, by the one-time key the loader hands out) and Cancel declaration.
export const loader = pageWork("A donation's page", async ({ request, context, params }: Route.LoaderArgs) => {
  await requireStaffPage(context.services, request, "money");
  const detail = await donationDetail(context.services, params.donationId);
  if (!detail) throw new AppError("not-found", "There is no such donation.");
  // A new key each time the page is shown: one refund per form, however often it is sent.
  return { ...detail, refundKey: crypto.randomUUID() };
});

export const action = pageWork("Changing a donation", async ({ request, context, params }: Route.ActionArgs) => {
  const staff = await requireStaffPage(context.services, request, "money");
  const services = context.services;
  return answerForm(request, {
    refund: async (form) => {
      const result = await refundDonation({ ...services, outbox: services.outbox }, staff, {
        donationId: params.donationId,
        key: formText(form, "key", 100),
        reason: form.get("reason"),
      });
      return {
        message:
          result.outcome === "pending"
            ? "The refund is recorded, but the card payment service did not confirm it yet. It is sent again automatically every 30 seconds."
            : "The donation is refunded, and the donor is told by e-mail.",
      };
    },
    "cancel-declaration": async () => {
      const cancelled = await cancelDeclaration(services, staff, params.donationId, services.clock.now());
      return {
        message: cancelled
          ? "The declaration is cancelled: later donations are not claimed under it."
          : "That declaration was already cancelled.",
      };
    },
  });
});

export const meta: Route.MetaFunction = () => adminMeta("Donation");

function when(iso: string | null) {
  return iso ? londonWhen(iso) : "—";
}

export default function AdminDonation({ loaderData, actionData }: Route.ComponentProps) {
  const { donation, declaration, coveredBy, refunds, refundKey, paymentReference } = loaderData;
  const notice = useNoticeFocus(actionData);
  const claim = donation.giftAid.claim;
  return (
    <main id="main" className="page">
      <Breadcrumbs here={`Donation of ${formatPounds(donation.amountPence)}`} />
      <h1>Donation of {formatPounds(donation.amountPence)}</h1>
      {actionData ? (
        <FormNotice ok={actionData.ok} focusRef={notice}>
          {actionData.message}
        </FormNotice>
      ) : null}
      {donation.giftAid.claimedThenRefunded && claim ? (
        <p className="notice donation-hmrc-notice" role="note">
          This donation was in the Gift Aid claim of {londonDayWords(`${claim.claimedOn}T12:00:00Z`)} and has since been
          refunded: tell HMRC, so that the claim is adjusted.
        </p>
      ) : null}
      <dl className="donation-details">
        <dt>Donor</dt>
        <dd>{donation.name}</dd>
        <dt>E-mail</dt>
        <dd>{donation.email}</dd>
        <dt>Amount</dt>
        <dd>{formatPounds(donation.amountPence)}</dd>
        <dt>Status</dt>
        <dd>{donation.statusLabel}</dd>
        {donation.monthly ? (
          <>
            <dt>Monthly gift</dt>
            <dd>
              The payment for {donation.monthly.month}
              {donation.monthly.directDebit ? ", collected by Direct Debit" : ""}
            </dd>
          </>
        ) : null}
        {loaderData.afterThankYou ? (
          <>
            <dt>After the thank-you of</dt>
            <dd>
              <Link to={`/admin/events/${loaderData.afterThankYou.eventId}`}>{loaderData.afterThankYou.name}</Link>
            </dd>
          </>
        ) : null}
        <dt>Made</dt>
        <dd>{when(donation.createdAt)}</dd>
        <dt>Paid</dt>
        <dd>{when(donation.paidAt)}</dd>
        {donation.refundedAt ? (
          <>
            <dt>Refunded</dt>
            <dd>{when(donation.refundedAt)}</dd>
          </>
        ) : null}
        <dt>Gift Aid</dt>
        <dd>
          {claim ? (
            <Link to={`/admin/gift-aid/claims/${claim.id}`}>{donation.giftAid.label}</Link>
          ) : (
            donation.giftAid.label
          )}
          {donation.giftAid.covered && !donation.giftAid.claimedThenRefunded && donation.status === "paid"
            ? ` (${formatPounds(donation.giftAid.claimablePence)} to add)`
            : ""}
        </dd>
        <dt>Reference</dt>
        <dd className="donation-reference">{donation.id}</dd>
      </dl>
      {paymentReference ? (
        <details className="provider-reference">
          <summary>The card payment&apos;s reference</summary>
          <p>
            {paymentReference.label} <code>{paymentReference.id}</code>
          </p>
        </details>
      ) : null}

      <section className="section" aria-labelledby="declaration-heading">
        <h2 id="declaration-heading">Gift Aid declaration</h2>
        {declaration ? (
          <>
            <dl className="donation-details">
              <dt>Name</dt>
              <dd>
                {declaration.firstName} {declaration.surname}
              </dd>
              <dt>House name or number</dt>
              <dd>{declaration.houseNameOrNumber}</dd>
              <dt>Postcode</dt>
              <dd>{declaration.postcode}</dd>
              <dt>Covers</dt>
              <dd>{giftAidScopeLabels[declaration.scope]}</dd>
              <dt>Declared</dt>
              <dd>{when(declaration.declaredAt)}</dd>
              {declaration.cancelledAt ? (
                <>
                  <dt>Cancelled</dt>
                  <dd>
                    {when(declaration.cancelledAt)}, recorded by {declaration.cancelledBy}
                  </dd>
                </>
              ) : null}
            </dl>
            <p>The words the donor agreed to:</p>
            <blockquote className="declaration-words">{declaration.wording}</blockquote>
            {declaration.cancelledAt ? null : <CancelDeclarationForm />}
          </>
        ) : coveredBy ? (
          <p>
            No declaration was made with this donation. It is covered by the declaration made with{" "}
            <Link to={`/admin/donations/${coveredBy.donationId}`}>another donation</Link> on{" "}
            {londonDayWords(coveredBy.declaredAt)} ({giftAidScopeLabels[coveredBy.scope].toLowerCase()}).
          </p>
        ) : (
          <p>No declaration covers this donation.</p>
        )}
      </section>

      <section className="section" aria-labelledby="refunds-heading">
        <h2 id="refunds-heading">Refunds</h2>
        {refunds.length === 0 ? (
          <p>This donation has not been refunded.</p>
        ) : (
          <TableScroll label="Table of refunds">
            <table className="admin-table">
              <thead>
                <tr>
                  <th scope="col">Asked for</th>
                  <th scope="col">Amount</th>
                  <th scope="col">Reason</th>
                  <th scope="col">Status</th>
                  <th scope="col">By</th>
                </tr>
              </thead>
              <tbody>
                {refunds.map((refund) => (
                  <tr key={refund.id}>
                    <td data-label="Asked for">{when(refund.createdAt)}</td>
                    <td data-label="Amount">{formatPounds(refund.amountPence)}</td>
                    <td data-label="Reason">{refund.reason}</td>
                    <td data-label="Status">
                      {refund.status === "succeeded"
                        ? `Refunded ${when(refund.completedAt)}`
                        : refund.status === "pending"
                          ? `Waiting for the card payment service (${refund.attempts} ${refund.attempts === 1 ? "attempt" : "attempts"}); tried again every 30 seconds`
                          : "Failed"}
                      {refund.reference ? (
                        <details className="provider-reference">
                          <summary>Reference</summary>
                          {refund.reference.label} <code>{refund.reference.id}</code>
                        </details>
                      ) : null}
                    </td>
                    <td data-label="By">{refund.staffEmail}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
        {donation.status === "paid" ? (
          <RefundDonationForm
            refundKey={refundKey}
            amountPence={donation.amountPence}
            claimed={claim !== null}
            error={actionData?.fields?.reason}
            reason={actionData?.intent === "refund" ? actionData.values?.reason : undefined}
          />
        ) : null}
      </section>
    </main>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
