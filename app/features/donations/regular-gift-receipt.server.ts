import { composeLetter, paragraphs, type Block, type Line } from "~/infra/email/letter.server";
import type { MailMessage } from "~/infra/email/mailer.server";
import type { Charity } from "~/infra/payments/provider.server";
import { londonDate, londonDayWords } from "~/lib/london-time";
import { formatPounds } from "~/lib/money";
import { maskedAccount, sortCodeWords } from "~/lib/bacs";
import { cardLabel, type PaymentCard } from "~/lib/payment-card";
import { giftAidPence } from "./amount";
import { dayOfMonthWords } from "./schema";

export interface RegularGiftReceiptDetails {
  /** The first payment gets the welcome; every later one a short receipt. */
  first: boolean;
  donationId: string;
  donorName: string;
  email: string;
  amountPence: number;
  dayOfMonth: number;
  paidAt: Date;
  /** When the next payment is due, as the donor's day of next month. */
  nextPaymentAt: Date;
  card: PaymentCard | null;
  /** A Direct Debit gift's account (decision 092): the receipt says Direct Debit, not a card. */
  directDebit?: { sortCode: string; last4: string } | null;
  giftAid: { wording: string; declaredAt: Date; cancelledAt: Date | null } | null;
  /** The donor's private link, with its token as the sealed word `{{token}}` (decision 054). */
  link: string;
  charity: Charity;
}

/**
 * A monthly gift's e-mail: the first payment's welcome (what a monthly gift makes possible, when the
 * next payment is taken, the Gift Aid declaration word for word) or a later month's short receipt.
 * Both carry the donor's private link to see their gift.
 */
export function regularGiftReceipt(details: RegularGiftReceiptDetails): Promise<MailMessage> {
  const { charity, giftAid } = details;
  const amount = formatPounds(details.amountPence);
  const extra = formatPounds(giftAidPence(details.amountPence));
  const worth = formatPounds(details.amountPence + giftAidPence(details.amountPence));
  const giftAidCovers = giftAid !== null && (!giftAid.cancelledAt || giftAid.cancelledAt > details.paidAt);
  const facts: [string, Line][] = [
    ["Amount", [{ strong: amount }]],
    ["Paid on", londonDate(details.paidAt)],
    ...(details.card ? [["Card", cardLabel(details.card)] as [string, Line]] : []),
    ...(details.directDebit
      ? [
          [
            "Paid by",
            `Direct Debit from account ${maskedAccount(details.directDebit.last4)}, sort code ${sortCodeWords(details.directDebit.sortCode)}`,
          ] as [string, Line],
        ]
      : []),
    ["Next payment", `${formatPounds(details.amountPence)} on ${londonDayWords(details.nextPaymentAt)}`],
    ["Donation reference", details.donationId],
    ["Gift Aid", giftAidCovers ? `Declared: we will claim ${extra} more from HMRC` : "Not declared"],
  ];
  const yourGift: Block[] = [
    { heading: "Your monthly gift" },
    {
      paragraph: [
        "See your gift, and how it stands, at any time through your own private link: ",
        { link: "your monthly gift", href: details.link },
        ". Please keep it to yourself: anyone with it can see your gift.",
      ],
    },
    {
      paragraph: [
        "To change or stop your gift, reply to this e-mail or write to ",
        { link: charity.email, href: `mailto:${charity.email}` },
        ".",
      ],
    },
  ];
  const giftAidBlocks: Block[] = giftAid
    ? [
        { heading: "Your Gift Aid declaration" },
        { paragraph: `On ${londonDate(giftAid.declaredAt)} you declared: "${giftAid.wording}"` },
        {
          paragraph: [
            "To cancel it, or if you change your name or home address, or no longer pay enough Income Tax and/or Capital Gains Tax, please tell us at ",
            { link: charity.email, href: `mailto:${charity.email}` },
            ".",
          ],
        },
      ]
    : [];

  if (!details.first) {
    return composeLetter({
      to: { name: details.donorName, address: details.email },
      subject: `Your monthly gift of ${amount} to ${charity.name}: receipt`,
      title: "Thank you for this month's gift",
      greeting: `Dear ${details.donorName},`,
      charity,
      blocks: [
        {
          paragraph: `Your monthly gift of ${amount} to ${charity.name} was paid on ${londonDate(details.paidAt)}${details.directDebit ? " by Direct Debit" : ""}.`,
        },
        ...(giftAidCovers ? [{ paragraph: `With Gift Aid it is worth ${worth} to the Trust.` } as Block] : []),
        { paragraph: "Asante sana: thank you very much." },
        { rows: facts },
        ...yourGift,
      ],
    });
  }
  return composeLetter({
    to: { name: details.donorName, address: details.email },
    subject: `Welcome, and thank you for your monthly gift of ${amount} to ${charity.name}`,
    title: "Thank you for giving every month",
    greeting: `Dear ${details.donorName},`,
    charity,
    blocks: [
      {
        paragraph: details.directDebit
          ? `Thank you for your monthly gift of ${amount} to ${charity.name}. Your first payment by Direct Debit was collected on ${londonDate(details.paidAt)}; from now on we will collect ${amount} on ${dayOfMonthWords(details.dayOfMonth)} of each month, starting on ${londonDayWords(details.nextPaymentAt)}, until you tell us to stop.`
          : `Thank you for your monthly gift of ${amount} to ${charity.name}. Your first payment was taken on ${londonDate(details.paidAt)}; from now on we will take ${amount} on ${dayOfMonthWords(details.dayOfMonth)} of each month, starting on ${londonDayWords(details.nextPaymentAt)}, until you tell us to stop.`,
      },
      { paragraph: "Asante sana: thank you very much." },
      { heading: "What your monthly gift does" },
      {
        paragraph:
          "A gift that comes every month is one the village can plan on: it lets the Trust promise the school, the pump and the clinic what they need a year ahead, rather than hoping the money comes.",
      },
      ...paragraphs(charity.receipts.whatYourGiftDoes),
      { heading: "Your first payment" },
      { rows: facts },
      ...(giftAidCovers
        ? [
            {
              paragraph: [
                `Gift Aid lets us claim ${extra} from HMRC on each payment, so every month your gift is worth `,
                { strong: worth },
                " to the Trust at no extra cost to you.",
              ],
            } as Block,
          ]
        : []),
      ...giftAidBlocks,
      ...yourGift,
      { heading: "Refunds" },
      ...paragraphs(charity.receipts.donationRefundPolicy),
    ],
  });
}

/**
 * A month's payment that did not go through: said once per bill, with the donor's private link
 * (sealed `{{token}}`) to change their card. The provider tries the card again over the next days;
 * nothing is asked of the donor if their card is fine.
 */
export function paymentFailedNotice(details: {
  /** A Direct Debit gift: the bank did not pay, and new bank details are what the donor can give. */
  directDebit?: boolean;
  donorName: string;
  email: string;
  amountPence: number;
  link: string;
  charity: Charity;
}): Promise<MailMessage> {
  const amount = formatPounds(details.amountPence);
  return composeLetter({
    to: { name: details.donorName, address: details.email },
    subject: `Your monthly gift of ${amount} to ${details.charity.name}: this month's payment did not go through`,
    title: "This month's payment did not go through",
    greeting: `Dear ${details.donorName},`,
    blocks: [
      details.directDebit
        ? {
            paragraph: `Your bank did not pay this month's Direct Debit of ${amount} for your monthly gift, so nothing has been taken, and we will not ask your bank for it again. Next month's payment is collected as usual.`,
          }
        : {
            paragraph: `Your bank or card company did not accept this month's payment of ${amount} for your monthly gift. Nothing has been taken. We will try the card again over the next few days.`,
          },
      {
        paragraph: [
          details.directDebit
            ? "If your bank account has changed, or you would like to check the details we have, you can give us new bank details through your private link: "
            : "If your card has expired or changed, you can give us your new one through your private link: ",
          { link: "your monthly gift", href: details.link },
          ". Please keep it to yourself: anyone with it can see your gift.",
        ],
      },
      {
        paragraph:
          "If you would rather stop your gift, reply to this e-mail and we will do it for you. Thank you for all you have given.",
      },
    ],
    charity: details.charity,
  });
}
