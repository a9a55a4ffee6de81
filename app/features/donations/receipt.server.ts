import type { Charity } from "~/infra/payments/provider.server";
import type { MailMessage } from "~/infra/email/mailer.server";
import { escapeHtml } from "~/lib/html";
import { londonDate } from "~/lib/london-time";
import { formatPounds } from "~/lib/money";
import { giftAidPence } from "./amount";

export interface DonationReceiptDetails {
  donationId: string;
  donorName: string;
  email: string;
  amountPence: number;
  paidAt: Date;
  giftAid: {
    firstName: string;
    surname: string;
    houseNameOrNumber: string;
    postcode: string;
    wording: string;
    declaredAt: Date;
  } | null;
  charity: Charity;
}

/**
 * The thank-you receipt for a donation: the amount, the date, the charity's name and registration
 * number, and, when Gift Aid was declared, the declaration word for word with how to cancel it.
 */
export function donationReceipt(details: DonationReceiptDetails): MailMessage {
  const { charity, giftAid } = details;
  const amount = formatPounds(details.amountPence);
  const date = londonDate(details.paidAt);
  const extra = formatPounds(giftAidPence(details.amountPence));
  const worth = formatPounds(details.amountPence + giftAidPence(details.amountPence));
  const cancelText = `To cancel this declaration, or if you change your name or home address, or no longer pay enough Income Tax and/or Capital Gains Tax, please tell us at ${charity.email}.`;

  const giftAidLines = giftAid
    ? [
        "Your Gift Aid declaration",
        `On ${londonDate(giftAid.declaredAt)} you declared: "${giftAid.wording}"`,
        `Name: ${giftAid.firstName} ${giftAid.surname}`,
        `Home address: ${giftAid.houseNameOrNumber}, ${giftAid.postcode}`,
        `Gift Aid lets us claim ${extra} from HMRC, so your gift is worth ${worth} to the Trust at no extra cost to you.`,
        cancelText,
        "",
      ]
    : [];
  const lines = [
    `Dear ${details.donorName},`,
    "",
    `Thank you for your donation of ${amount} to ${charity.name}, received on ${date}.`,
    `Your donation reference is ${details.donationId}.`,
    "",
    "Asante sana: your gift goes straight to work in the village of Kilele, Tanzania.",
    "",
    ...giftAidLines,
    `${charity.name}, registered charity number ${charity.registrationNumber}`,
    `Questions? Reply to ${charity.email}.`,
  ];

  const giftAidHtml = giftAid
    ? `<h2 style="color:#143820;font-size:18px">Your Gift Aid declaration</h2>
<p>On ${londonDate(giftAid.declaredAt)} you declared:</p>
<blockquote style="margin:0 0 1em;padding-left:12px;border-left:4px solid #2f7a3e">${escapeHtml(giftAid.wording)}</blockquote>
<table role="presentation" cellpadding="4" style="border-collapse:collapse">
<tr><th align="left">Name</th><td>${escapeHtml(`${giftAid.firstName} ${giftAid.surname}`)}</td></tr>
<tr><th align="left">Home address</th><td>${escapeHtml(`${giftAid.houseNameOrNumber}, ${giftAid.postcode}`)}</td></tr>
</table>
<p>Gift Aid lets us claim ${extra} from HMRC, so your gift is worth <strong>${worth}</strong> to the Trust at no extra cost to you.</p>
<p>${escapeHtml(cancelText)}</p>`
    : "";
  const html = `<!doctype html><html lang="en-GB"><body style="font-family:Arial,Helvetica,sans-serif;color:#1d1d1b;line-height:1.5">
<h1 style="color:#143820;font-size:22px">Thank you for your donation</h1>
<p>Dear ${escapeHtml(details.donorName)},</p>
<p>Thank you for your donation of <strong>${amount}</strong> to ${escapeHtml(charity.name)}, received on ${date}. Your donation reference is <strong>${details.donationId}</strong>.</p>
<p>Asante sana: your gift goes straight to work in the village of Kilele, Tanzania.</p>
${giftAidHtml}
<p style="color:#4d4a44;font-size:13px">${escapeHtml(charity.name)}, registered charity number ${escapeHtml(charity.registrationNumber)}.<br>Questions? Reply to <a href="mailto:${escapeHtml(charity.email)}">${escapeHtml(charity.email)}</a>.</p>
</body></html>`;

  return {
    to: `${details.donorName} <${details.email}>`,
    subject: `Thank you for your donation of ${amount} to ${charity.name}`,
    text: lines.join("\n"),
    html,
  };
}
