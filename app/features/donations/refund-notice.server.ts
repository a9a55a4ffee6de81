import { composeLetter } from "~/infra/email/letter.server";
import type { MailMessage } from "~/infra/email/mailer.server";
import type { Charity } from "~/infra/payments/provider.server";
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
export function donationRefundNotice(details: DonationRefundDetails): Promise<MailMessage> {
  const { charity } = details;
  const amount = formatPounds(details.amountPence);
  return composeLetter({
    to: { name: details.donorName, address: details.email },
    subject: `Your donation of ${amount} to ${charity.name} has been refunded`,
    title: "Your donation has been refunded",
    greeting: `Dear ${details.donorName},`,
    charity,
    blocks: [
      {
        paragraph: [
          "We have refunded your donation of ",
          { strong: amount },
          ` to ${charity.name}, made on ${londonDate(details.paidAt)}, to the card you paid with. It can take 5 to 10 days to appear on your statement.`,
        ],
      },
      { paragraph: "No Gift Aid will be claimed on this donation." },
      { paragraph: `Your donation reference is ${details.donationId}.` },
    ],
  });
}
