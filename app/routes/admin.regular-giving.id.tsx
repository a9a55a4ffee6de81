import { useRef, useState } from "react";
import { Form, Link, useNavigation } from "react-router";
import type { Route } from "./+types/admin.regular-giving.id";
import { ErrorPage } from "~/components/layout/error-page";
import { ConfirmDialog } from "~/components/ui/confirm-dialog";
import { FormNotice } from "~/components/ui/form-notice";
import { BusyButton } from "~/components/ui/spinner";
import { TableScroll } from "~/components/ui/table-scroll";
import { useNoticeFocus } from "~/components/ui/use-notice-focus";
import { donationStatusLabels } from "~/features/donations/schema";
import {
  cancelRegularGiftForDonor,
  regularGiftDetail,
  sendRegularGiftLink,
} from "~/features/donations/staff-regular-gifts.server";
import { adminMeta } from "~/features/staff/components/admin-shell";
import { Breadcrumbs } from "~/features/staff/components/breadcrumbs";
import { requireStaffPage } from "~/features/staff/staff.server";
import { answerForm } from "~/infra/http/form-action.server";
import { pageWork } from "~/infra/http/page.server";
import { AppError } from "~/lib/errors";
import { londonDate, londonWhen } from "~/lib/london-time";
import { formatPounds } from "~/lib/money";

// /admin/regular-giving/:giftId: one monthly gift, its payments (each a donation) and its history;
// Cancel this gift (on the donor's request, asked once) and Send a fresh link to the donor.
export const loader = pageWork("A monthly gift's page", async ({ request, context, params }: Route.LoaderArgs) => {
  await requireStaffPage(context.services, request, "money");
  const detail = await regularGiftDetail(context.services.db, params.giftId);
  if (!detail) throw new AppError("not-found", "There is no such monthly gift.");
  return detail;
});

export const action = pageWork("Changing a monthly gift", async ({ request, context, params }: Route.ActionArgs) => {
  const staff = await requireStaffPage(context.services, request, "money");
  const services = context.services;
  return answerForm(request, {
    cancel: async () => {
      const outcome = await cancelRegularGiftForDonor(services, staff, params.giftId);
      return {
        message:
          outcome === "cancelled"
            ? "The monthly gift is cancelled: no further payment will be taken, and the donor is told by e-mail."
            : "That monthly gift was already cancelled.",
      };
    },
    "send-link": async () => {
      await sendRegularGiftLink(services, staff, params.giftId);
      return { message: "A fresh private link is on its way to the donor." };
    },
  });
});

export const meta: Route.MetaFunction = () => adminMeta("Monthly gift");

export default function AdminRegularGift({ loaderData, actionData }: Route.ComponentProps) {
  const { gift, payments, history, link } = loaderData;
  const notice = useNoticeFocus(actionData);
  const title = `Monthly gift of ${formatPounds(gift.amountPence)} from ${gift.donorName}`;
  return (
    <main id="main" className="page">
      <Breadcrumbs here={title} />
      <h1>{title}</h1>
      {actionData ? (
        <FormNotice ok={actionData.ok} focusRef={notice}>
          {actionData.message}
        </FormNotice>
      ) : null}
      <dl className="donation-details">
        <dt>Donor</dt>
        <dd>{gift.donorName}</dd>
        <dt>E-mail</dt>
        <dd>{gift.email}</dd>
        <dt>Each month</dt>
        <dd>
          {formatPounds(gift.amountPence)}, taken on {gift.day}
        </dd>
        <dt>State</dt>
        <dd>{gift.statusLabel}</dd>
        <dt>Paid by</dt>
        <dd>{gift.paidBy}</dd>
        {gift.mandate ? (
          <>
            <dt>Direct Debit Instruction</dt>
            <dd>
              Reference {gift.mandate.reference}: {gift.mandate.statusLabel}
            </dd>
          </>
        ) : null}
        <dt>Started</dt>
        <dd>{londonWhen(gift.startedAt)}</dd>
        {gift.cancelledAt ? (
          <>
            <dt>Cancelled</dt>
            <dd>{londonWhen(gift.cancelledAt)}</dd>
          </>
        ) : null}
        <dt>Paid so far</dt>
        <dd>
          {formatPounds(gift.paidPence)} ({gift.payments === 1 ? "1 payment" : `${gift.payments} payments`})
        </dd>
        <dt>Gift Aid</dt>
        <dd>{gift.giftAid ? "Declared for this gift and the donor's future gifts" : "Not declared"}</dd>
        <dt>The donor&apos;s private link</dt>
        <dd>
          {link ? `Last sent ${londonWhen(link.sentAt)}; it works until ${londonDate(link.expiresAt)}` : "Not sent yet"}
        </dd>
      </dl>
      {gift.providerSubscriptionId ? (
        <details className="provider-reference">
          <summary>The card payment service&apos;s reference</summary>
          <p>
            {gift.provider === "stripe" ? "Stripe subscription" : "Test subscription"}{" "}
            <code>{gift.providerSubscriptionId}</code>
          </p>
        </details>
      ) : null}

      <section className="section" aria-labelledby="actions-heading">
        <h2 id="actions-heading">On the donor&apos;s request</h2>
        <SendLinkForm />
        {gift.status === "cancelled" ? null : <CancelGiftForm amount={formatPounds(gift.amountPence)} />}
      </section>

      <section className="section" aria-labelledby="payments-heading">
        <h2 id="payments-heading">Payments</h2>
        {payments.length === 0 ? (
          <p>No payment has been taken yet.</p>
        ) : (
          <TableScroll label="Table of the gift's payments">
            <table className="admin-table">
              <thead>
                <tr>
                  <th scope="col">Month</th>
                  <th scope="col">Amount</th>
                  <th scope="col">Status</th>
                  <th scope="col">Paid</th>
                </tr>
              </thead>
              <tbody>
                {payments.map((payment) => (
                  <tr key={payment.donationId}>
                    <th scope="row">
                      <Link to={`/admin/donations/${payment.donationId}`}>{payment.label}</Link>
                    </th>
                    <td data-label="Amount">{formatPounds(payment.amountPence)}</td>
                    <td data-label="Status">
                      {donationStatusLabels[payment.status as keyof typeof donationStatusLabels] ?? payment.status}
                    </td>
                    <td data-label="Paid">{payment.paidAt ? londonWhen(payment.paidAt) : "—"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </section>

      <section className="section" aria-labelledby="history-heading">
        <h2 id="history-heading">What staff have done</h2>
        {history.length === 0 ? (
          <p>Nothing yet.</p>
        ) : (
          <ul>
            {history.map((entry) => (
              <li key={`${entry.at}-${entry.summary}`}>
                {londonWhen(entry.at)}: {entry.summary} ({entry.by})
              </li>
            ))}
          </ul>
        )}
      </section>
    </main>
  );
}

function SendLinkForm() {
  const navigation = useNavigation();
  const sending = navigation.state !== "idle" && navigation.formData?.get("intent") === "send-link";
  return (
    <Form method="post" className="form">
      <input type="hidden" name="intent" value="send-link" />
      <p>The donor can see their gift through their private link. A fresh one goes to their e-mail address.</p>
      <BusyButton busy={sending} busyLabel="Sending…" className="button button-secondary">
        Send a fresh link
      </BusyButton>
    </Form>
  );
}

function CancelGiftForm({ amount }: { amount: string }) {
  const formRef = useRef<HTMLFormElement>(null);
  const [asking, setAsking] = useState(false);
  const navigation = useNavigation();
  const cancelling = navigation.state !== "idle" && navigation.formData?.get("intent") === "cancel";
  return (
    <>
      <Form ref={formRef} method="post" className="form">
        <input type="hidden" name="intent" value="cancel" />
        <p>When the donor asks you to stop their gift (by phone or letter), cancel it here.</p>
        <BusyButton
          busy={cancelling}
          busyLabel="Cancelling…"
          type="button"
          className="button button-secondary"
          aria-disabled={cancelling}
          onClick={() => {
            if (!cancelling) setAsking(true);
          }}
        >
          Cancel this gift
        </BusyButton>
      </Form>
      <ConfirmDialog
        open={asking}
        title="Cancel this monthly gift?"
        message={`No further payment of ${amount} will be taken, and the donor is told by e-mail. Payments already made stay given. This cannot be undone: to give again, the donor starts a new gift.`}
        confirmLabel="Cancel the gift"
        cancelLabel="Keep it"
        onCancel={() => setAsking(false)}
        onConfirm={() => {
          setAsking(false);
          formRef.current?.requestSubmit();
        }}
      />
    </>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
