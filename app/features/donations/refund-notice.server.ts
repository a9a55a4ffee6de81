import type { MailMessage } from "~/infra/email/mailer.server";
import type { Charity } from "~/infra/payments/provider.server";
import { escapeHtml } from "~/lib/html";
import { londonDate } from "~/lib/london-time";
import { formatPounds } from "~/lib/money";

export interface DonationRefundDetails {
  donationId: string;
  donorName: string;
  email: string;
  amountPence: number;
  paidAt: Date;
  refundedAt: Date;
  charity: Charity;
}

/** The donor's notice that their donation was given back to their card, and that no Gift Aid will be claimed on it. */
export function donationRefundNotice(details: DonationRefundDetails): MailMessage {
  const { charity } = details;
  const amount = formatPounds(details.amountPence);
  const given = londonDate(details.paidAt);
  const lines = [
    `Dear ${details.donorName},`,
    "",
    `We have refunded your donation of ${amount} to ${charity.name}, made on ${given}, to the card you paid with.`,
    "It can take 5 to 10 days to appear on your statement.",
    "No Gift Aid will be claimed on this donation.",
    `Your donation reference is ${details.donationId}.`,
    "",
    `${charity.name}, registered charity number ${charity.registrationNumber}`,
    `Questions? Reply to ${charity.email}.`,
  ];
  const html = `<!doctype html><html lang="en-GB"><body style="font-family:Arial,Helvetica,sans-serif;color:#1d1d1b;line-height:1.5">
<h1 style="color:#143820;font-size:22px">Your donation has been refunded</h1>
<p>Dear ${escapeHtml(details.donorName)},</p>
<p>We have refunded your donation of <strong>${amount}</strong> to ${escapeHtml(charity.name)}, made on ${given}, to the card you paid with. It can take 5 to 10 days to appear on your statement.</p>
<p>No Gift Aid will be claimed on this donation.</p>
<p>Your donation reference is <strong>${details.donationId}</strong>.</p>
<p style="color:#4d4a44;font-size:13px">${escapeHtml(charity.name)}, registered charity number ${escapeHtml(charity.registrationNumber)}.<br>Questions? Reply to <a href="mailto:${escapeHtml(charity.email)}">${escapeHtml(charity.email)}</a>.</p>
</body></html>`;
  return {
    to: `${details.donorName} <${details.email}>`,
    subject: `Your donation of ${amount} to ${charity.name} has been refunded`,
    text: lines.join("\n"),
    html,
  };
}
