import type { Charity } from "~/infra/payments/provider.server";
import { composeLetter, paragraphs, type Block, type Line } from "~/infra/email/letter.server";
import type { MailMessage } from "~/infra/email/mailer.server";
import { londonDate, londonTime } from "~/lib/london-time";
import { formatPounds } from "~/lib/money";
import { cardLabel, type PaymentCard } from "~/lib/payment-card";
import { giftAidPence } from "./amount";

export interface DonationReceiptDetails {
  donationId: string;
  donorName: string;
  email: string;
  amountPence: number;
  paidAt: Date;
  /** The card it was taken from, where the provider said. */
  card: PaymentCard | null;
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
 * The thank-you receipt for a donation: the amount, when it was paid and with which card, what the
 * gift does, the charity's name and registration number, the refund policy, and Gift Aid: with a
 * declaration, the declaration word for word, what it adds and how to cancel it; without one, what
 * it would add and how to add it.
 */
export function donationReceipt(details: DonationReceiptDetails): Promise<MailMessage> {
  const { charity, giftAid } = details;
  const amount = formatPounds(details.amountPence);
  const paid = `${londonDate(details.paidAt)} at ${londonTime(details.paidAt)}`;
  const extra = formatPounds(giftAidPence(details.amountPence));
  const worth = formatPounds(details.amountPence + giftAidPence(details.amountPence));

  const giftAidBlocks: Block[] = giftAid
    ? [
        { heading: "Your Gift Aid declaration" },
        { paragraph: `On ${londonDate(giftAid.declaredAt)} you declared: "${giftAid.wording}"` },
        {
          rows: [
            ["Name", `${giftAid.firstName} ${giftAid.surname}`],
            ["Home address", `${giftAid.houseNameOrNumber}, ${giftAid.postcode}`],
          ],
        },
        {
          paragraph: [
            `Gift Aid lets us claim ${extra} from HMRC, so your gift is worth `,
            { strong: worth },
            " to the Trust at no extra cost to you.",
          ],
        },
        {
          paragraph: [
            "To cancel this declaration, or if you change your name or home address, or no longer pay enough Income Tax and/or Capital Gains Tax, please tell us at ",
            { link: charity.email, href: `mailto:${charity.email}` },
            ".",
          ],
        },
      ]
    : [
        { heading: "Add Gift Aid at no cost to you" },
        {
          paragraph: `If you pay UK Income Tax or Capital Gains Tax, Gift Aid lets us claim 25% more from HMRC: ${extra} on this gift, making it worth ${worth} to the Trust, at no extra cost to you.`,
        },
        {
          paragraph: [
            "To add it: the next time you give on ",
            { link: "our donation page", href: new URL("/payment", charity.website).toString() },
            " with this e-mail address, tick Gift Aid and choose a declaration that covers the past four years; it will cover this gift too. Questions about Gift Aid? Reply to this e-mail.",
          ],
        },
      ];

  const facts: [string, Line][] = [
    ["Amount", [{ strong: amount }]],
    ["Paid on", paid],
    ...(details.card ? [["Card", cardLabel(details.card)] as [string, Line]] : []),
    ["Donation reference", details.donationId],
    ["Gift Aid", giftAid ? `Declared: we will claim ${extra} more from HMRC` : "Not declared"],
  ];

  return composeLetter({
    to: { name: details.donorName, address: details.email },
    subject: `Thank you for your donation of ${amount} to ${charity.name}`,
    title: "Thank you for your donation",
    greeting: `Dear ${details.donorName},`,
    charity,
    blocks: [
      { paragraph: `Thank you for your donation of ${amount} to ${charity.name}, received on ${paid}.` },
      { paragraph: `Your donation reference is ${details.donationId}.` },
      { paragraph: "Asante sana: thank you very much." },
      { heading: "What your gift does" },
      ...paragraphs(charity.receipts.whatYourGiftDoes),
      { heading: "Your donation" },
      { rows: facts },
      ...giftAidBlocks,
      { heading: "Refunds" },
      ...paragraphs(charity.receipts.donationRefundPolicy),
    ],
  });
}
