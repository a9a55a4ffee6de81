import { composeLetter, type Block, type Line } from "~/infra/email/letter.server";
import type { MailMessage } from "~/infra/email/mailer.server";
import type { Charity } from "~/infra/payments/provider.server";
import { bacsWorkingDays, directDebitGuarantee, maskedAccount, sortCodeWords } from "~/lib/bacs";
import { londonDayWords } from "~/lib/london-time";
import { formatPounds } from "~/lib/money";
import { dayOfMonthWords } from "./schema";

// The Bacs scheme's notices for a Direct Debit gift (docs/decisions/092-direct-debit.md), in the
// wording the scheme asks of a charity that sends its own: the confirmation of a Direct Debit
// Instruction, which includes the advance notice of the first payment and the monthly amount; a
// fresh advance notice before any change of amount or date; and a word when the bank refuses the
// mandate. Sent by the site on the offline provider always, on Stripe only when the charity's own
// notices replace Stripe's (STRIPE_BACS_OWN_NOTICES).

/** The mandate as the notices show it: never more of the account than its last four digits. */
export interface NoticeMandate {
  accountName: string;
  /** Six digits. */
  sortCode: string;
  last4: string;
  reference: string;
}

interface Donor {
  donorName: string;
  email: string;
  charity: Charity;
}

/** How to reach the charity: its e-mail, and its telephone where the content gives one. */
function contact(charity: Charity): Words[] {
  return [
    "write to ",
    { link: charity.email, href: `mailto:${charity.email}` },
    ...(charity.telephone ? [` or telephone ${charity.telephone}`] : []),
  ];
}
type Words = Exclude<Line, string>[number];

function mandateRows(mandate: NoticeMandate, charity: Charity): Block {
  return {
    rows: [
      ["Account holder", mandate.accountName],
      ["Account number", maskedAccount(mandate.last4)],
      ["Sort code", sortCodeWords(mandate.sortCode)],
      ["Mandate reference", [{ strong: mandate.reference }]],
      ["Paid to", charity.name],
      ["Shown on your bank statement as", charity.name],
    ],
  };
}

function guarantee(charity: Charity): Block[] {
  return [
    { heading: "The Direct Debit Guarantee" },
    ...directDebitGuarantee(charity.name).map((line): Block => ({ paragraph: `• ${line}` })),
  ];
}

function rightToCancel(charity: Charity): Block[] {
  return [
    { heading: "Your right to cancel" },
    {
      paragraph: [
        "You can cancel your Direct Debit at any time by contacting your bank or building society. Please also tell us: reply to this e-mail, ",
        ...contact(charity),
        ". Your gift's private link, in every receipt, lets you cancel it too.",
      ],
    },
  ];
}

/**
 * The confirmation of a Direct Debit Instruction, incorporating the advance notice: sent once per
 * mandate, as soon as the bank details are collected (the first collection is within a month).
 */
export function mandateConfirmation(
  details: Donor & {
    mandate: NoticeMandate;
    amountPence: number;
    dayOfMonth: number;
    /** The first collection from this mandate, and the monthly one after it. */
    firstCollectionAt: Date;
    thenMonthlyFrom: Date;
    /** New bank details for a gift that was running: the same gift, a new Instruction. */
    replacing?: boolean;
  },
): Promise<MailMessage> {
  const { charity, mandate } = details;
  const amount = formatPounds(details.amountPence);
  const day = dayOfMonthWords(details.dayOfMonth);
  const first = londonDayWords(details.firstCollectionAt);
  const then = londonDayWords(details.thenMonthlyFrom);
  const schedule: Line = details.replacing
    ? `From now on your monthly gift of ${amount} is collected from this account on ${day} of each month (or the next working day), starting on ${first}, until you cancel.`
    : `Your first payment of ${amount} will be collected on or shortly after ${first}. After that, ${amount} will be collected on ${day} of each month (or the next working day), starting on ${then}, until you cancel.`;
  return composeLetter({
    to: { name: details.donorName, address: details.email },
    subject: `Confirmation of your Direct Debit Instruction to ${charity.name}`,
    title: "Your Direct Debit Instruction is set up",
    greeting: `Dear ${details.donorName},`,
    charity,
    blocks: [
      {
        paragraph: `This confirms the set-up of your Direct Debit Instruction to ${charity.name} for your monthly gift. Thank you.`,
      },
      {
        paragraph: [
          "Please check the details below. If any of them is wrong, tell us straight away: reply to this e-mail, ",
          ...contact(charity),
          ".",
        ],
      },
      mandateRows(mandate, charity),
      { heading: "Advance notice of your payments" },
      { paragraph: schedule },
      {
        paragraph: `If the amount, the date or how often we collect ever changes, we will tell you at least ${bacsWorkingDays.notice} working days before your account is debited.`,
      },
      ...rightToCancel(charity),
      ...guarantee(charity),
    ],
  });
}

/** An advance notice: the amount or the date of collection changes, from the collection named. */
export function advanceNotice(
  details: Donor & {
    mandate: NoticeMandate;
    /** What changed, in the words of the change's letter. */
    lines: Line[];
    /** The letter's subject after "Your Direct Debit to <charity>: ". */
    subject: string;
    amountPence: number;
    dayOfMonth: number;
    /** The first collection the change applies to. */
    from: Date;
  },
): Promise<MailMessage> {
  const { charity, mandate } = details;
  const amount = formatPounds(details.amountPence);
  return composeLetter({
    to: { name: details.donorName, address: details.email },
    subject: `Your Direct Debit to ${charity.name}: advance notice, ${details.subject}`,
    title: "Advance notice of your Direct Debit",
    greeting: `Dear ${details.donorName},`,
    charity,
    blocks: [
      ...details.lines.map((line): Block => ({ paragraph: line })),
      {
        rows: [
          ["Amount", [{ strong: amount }]],
          ["First collection", `On or shortly after ${londonDayWords(details.from)}`],
          ["Then", `${amount} on ${dayOfMonthWords(details.dayOfMonth)} of each month (or the next working day)`],
        ],
      },
      { paragraph: "It is collected from the account of your Direct Debit Instruction:" },
      mandateRows(mandate, charity),
      {
        paragraph: [
          "If you did not make this change, or any of these details is wrong, tell us straight away: reply to this e-mail, ",
          ...contact(charity),
          ".",
        ],
      },
      ...rightToCancel(charity),
      ...guarantee(charity),
    ],
  });
}

/** The bank refused the mandate (or it was cancelled at the bank): no further payment can be collected. */
export function mandateInactiveNotice(details: Donor & { link: string; mandate: NoticeMandate }): Promise<MailMessage> {
  const { charity } = details;
  return composeLetter({
    to: { name: details.donorName, address: details.email },
    subject: `Your Direct Debit to ${charity.name} has stopped`,
    title: "Your Direct Debit has stopped",
    greeting: `Dear ${details.donorName},`,
    charity,
    blocks: [
      {
        paragraph: `Your bank has told us that your Direct Debit Instruction (reference ${details.mandate.reference}, account ${maskedAccount(details.mandate.last4)}) is no longer in place, so we cannot collect your monthly gift from it. Nothing more will be taken from that account.`,
      },
      {
        paragraph: [
          "If you would like your gift to carry on, you can give us new bank details through your private link: ",
          { link: "your monthly gift", href: details.link },
          ". Please keep it to yourself: anyone with it can see your gift.",
        ],
      },
      {
        paragraph: [
          "If you meant to stop it, there is nothing more to do. Questions? Reply to this e-mail, or ",
          ...contact(charity),
          ". Thank you for all you have given.",
        ],
      },
    ],
  });
}
