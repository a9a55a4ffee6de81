import { billingMonthOf, monthAfter, monthlyPaymentDate } from "./billing-month";
import { fromLondonInput, londonDay } from "./london-time";

// Bacs Direct Debit (docs/decisions/092-direct-debit.md): the scheme's working days, the notice it
// requires, its standard wording, and the bank details a donor types, checked the same way in the
// browser and on the server. Browser-safe: no secrets, no database.

/**
 * Working days, as the Bacs scheme counts them: Monday to Friday, less the bank holidays of England
 * and Wales (the days Bacs does not process; `isBankHoliday`).
 */
export const bacsWorkingDays = {
  /** The advance notice the Direct Debit Guarantee promises before a changed collection. */
  notice: 3,
  /** A payment from a mandate already in place: processing, then settled this many working days on. */
  existingMandate: 3,
  /** The first payment from a new mandate: the bank sets the mandate up first. */
  newMandate: 6,
} as const;

const isWeekend = (day: string) => {
  const weekday = new Date(`${day}T12:00:00Z`).getUTCDay();
  return weekday === 0 || weekday === 6;
};

/** "YYYY-MM-DD" of a day of `year` (UTC noon arithmetic: no clock change moves it). */
const ymd = (year: number, month: number, day: number) =>
  new Date(Date.UTC(year, month - 1, day, 12)).toISOString().slice(0, 10);

const weekdayOf = (year: number, month: number, day: number) =>
  new Date(Date.UTC(year, month - 1, day, 12)).getUTCDay();

/** Easter Sunday of `year` (the Gregorian computus), as [month, day]. */
function easterSunday(year: number): [number, number] {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  return [Math.floor((h + l - 7 * m + 114) / 31), ((h + l - 7 * m + 114) % 31) + 1];
}

/** The first (or, with `last`, the final) Monday of a month. */
function monday(year: number, month: number, last = false): string {
  if (!last) return ymd(year, month, 1 + ((8 - weekdayOf(year, month, 1)) % 7));
  const end = new Date(Date.UTC(year, month, 0, 12)).getUTCDate();
  return ymd(year, month, end - ((weekdayOf(year, month, end) + 6) % 7));
}

/**
 * The bank holidays the rules do not give: a holiday moved (the early May one to a Friday for VE Day,
 * the spring one for a jubilee) and days proclaimed once. As published on gov.uk/bank-holidays; a
 * new proclamation is added here.
 */
const movedBankHolidays: Record<string, string> = {
  "2020-05-04": "2020-05-08",
  "2022-05-30": "2022-06-02",
};
const proclaimedBankHolidays = new Set(["2022-06-03", "2022-09-19", "2023-05-08"]);

/** The bank holidays of England and Wales in `year`, by the rules of the Banking and Financial Dealings Act. */
export function bankHolidays(year: number): Set<string> {
  const days: string[] = [];
  // New Year's Day, or the Monday after it falls at a weekend.
  const newYear = weekdayOf(year, 1, 1);
  days.push(ymd(year, 1, newYear === 6 ? 3 : newYear === 0 ? 2 : 1));
  const [easterMonth, easterDay] = easterSunday(year);
  days.push(ymd(year, easterMonth, easterDay - 2), ymd(year, easterMonth, easterDay + 1));
  days.push(monday(year, 5), monday(year, 5, true), monday(year, 8, true));
  // Christmas and Boxing Day; one at a weekend moves to the next weekday the other leaves free.
  const christmas = weekdayOf(year, 12, 25);
  if (christmas === 5) days.push(ymd(year, 12, 25), ymd(year, 12, 28));
  else if (christmas === 6) days.push(ymd(year, 12, 27), ymd(year, 12, 28));
  else if (christmas === 0) days.push(ymd(year, 12, 26), ymd(year, 12, 27));
  else days.push(ymd(year, 12, 25), ymd(year, 12, 26));
  const all = new Set(days.map((day) => movedBankHolidays[day] ?? day));
  for (const day of proclaimedBankHolidays) if (day.startsWith(`${year}-`)) all.add(day);
  return all;
}

/** Whether Bacs is closed on a London day ("YYYY-MM-DD"): a bank holiday in England and Wales. */
export function isBankHoliday(day: string): boolean {
  return bankHolidays(Number(day.slice(0, 4))).has(day);
}

/** `days` working days after `from`, at the same London time of day (weekends and bank holidays skipped). */
export function addWorkingDays(from: Date, days: number): Date {
  let moment = from;
  let left = days;
  while (left > 0) {
    // A day on, in London (so a change of the clocks keeps the time of day).
    const day = londonDay(moment);
    const next = new Date(`${day}T12:00:00Z`);
    next.setUTCDate(next.getUTCDate() + 1);
    const nextDay = next.toISOString().slice(0, 10);
    const time = new Intl.DateTimeFormat("en-GB", {
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
      timeZone: "Europe/London",
    }).format(moment);
    moment = new Date(fromLondonInput(`${nextDay}T${time}`) ?? moment.getTime() + 86_400_000);
    if (!isWeekend(nextDay) && !isBankHoliday(nextDay)) left -= 1;
  }
  return moment;
}

/** When the first payment from a mandate set up at `mandateAt` is collected (a new mandate's days). */
export function firstCollectionAt(mandateAt: Date): Date {
  return addWorkingDays(mandateAt, bacsWorkingDays.newMandate);
}

/**
 * A Direct Debit gift's second collection: the donor's day of the first month after the one it
 * started in that falls after the first collection, so the first two never come close together.
 */
export function secondCollectionAt(start: Date, day: number): Date {
  const first = firstCollectionAt(start);
  let month = monthAfter(billingMonthOf(start));
  while (monthlyPaymentDate(month, day) <= first) month = monthAfter(month);
  return monthlyPaymentDate(month, day);
}

/** The earliest collection a change made at `now` may alter: the advance notice must come first. */
export function noticeDeadline(now: Date): Date {
  return addWorkingDays(now, bacsWorkingDays.notice);
}

/** The charity's name in the Guarantee's words, and the notice it gives. */
export function directDebitGuarantee(charityName: string): string[] {
  const days = bacsWorkingDays.notice;
  return [
    "This Guarantee is offered by all banks and building societies that accept instructions to pay Direct Debits",
    `If there are any changes to the amount, date or frequency of your Direct Debit ${charityName} will notify you ${days} working days in advance of your account being debited or as otherwise agreed. If you request ${charityName} to collect a payment, confirmation of the amount and date will be given to you at the time of the request`,
    `If an error is made in the payment of your Direct Debit, by ${charityName} or your bank or building society, you are entitled to a full and immediate refund of the amount paid from your bank or building society`,
    `If you receive a refund you are not entitled to, you must pay it back when ${charityName} asks you to`,
    "You can cancel a Direct Debit at any time by simply contacting your bank or building society. Written confirmation may be required. Please also notify us.",
  ];
}

/** The bank form's confirmation, which the donor ticks. */
export const accountHolderConfirmation =
  "I confirm that I am the account holder and the only person required to authorise debits from this account.";

/** What the donor agrees to, in the words of the mandate (shown above the button). */
export function mandateWording(charityName: string): string {
  return `By confirming, you authorise ${charityName} to instruct your bank or building society to take payments from your account by Direct Debit, on the terms below and safeguarded by the Direct Debit Guarantee. You will receive a confirmation of your Direct Debit Instruction by e-mail, with the date and amount of your first payment.`;
}

/** The bank details a donor types, as the form sends them. */
export interface BankDetails {
  accountName: string;
  sortCode: string;
  accountNumber: string;
  /** The account holder's confirmation ticked: "yes". */
  confirmed: string;
}

export type BankField = "accountName" | "sortCode" | "accountNumber" | "confirmed";

export const bankMessages = {
  accountName: "Please enter the name on the bank account.",
  sortCode: "Please enter your sort code: six digits, such as 10-88-00.",
  accountNumber: "Please enter your account number: eight digits.",
  confirmed: "Please confirm that you are the account holder and the only person needed to authorise debits.",
} as const;

export const bankLimits = { accountName: 80 } as const;

/** "108800" for "10-88-00", "10 88 00" or "108800"; null when it is not six digits. */
export function sortCodeDigits(text: string): string | null {
  const digits = text.replace(/[\s-]/g, "");
  return /^\d{6}$/.test(digits) ? digits : null;
}

/** "10-88-00" */
export const sortCodeWords = (digits: string) => `${digits.slice(0, 2)}-${digits.slice(2, 4)}-${digits.slice(4, 6)}`;

/** "12345678" for "1234 5678"; null when it is not eight digits. */
export function accountNumberDigits(text: string): string | null {
  const digits = text.replace(/[\s-]/g, "");
  return /^\d{8}$/.test(digits) ? digits : null;
}

/** The form's own checks (the same in the browser and on the server): each field's message. */
export function bankDetailsProblems(details: BankDetails): Partial<Record<BankField, string>> {
  const problems: Partial<Record<BankField, string>> = {};
  const name = details.accountName.trim();
  if (!name || name.length > bankLimits.accountName || !/\p{L}/u.test(name))
    problems.accountName = bankMessages.accountName;
  if (!sortCodeDigits(details.sortCode)) problems.sortCode = bankMessages.sortCode;
  if (!accountNumberDigits(details.accountNumber)) problems.accountNumber = bankMessages.accountNumber;
  if (details.confirmed !== "yes") problems.confirmed = bankMessages.confirmed;
  return problems;
}

/** "••••5678": the account as notices and pages show it, its leading digits masked. */
export const maskedAccount = (last4: string) => `••••${last4}`;

/** Stripe's test sort code, and what each of its test accounts does (the offline provider plays them). */
export const testSortCode = "108800";
export const testBankAccounts: Record<string, "succeeds" | "fails" | "refused" | "invalid"> = {
  "00012345": "succeeds",
  "90012345": "succeeds",
  "33333335": "fails",
  "93333335": "fails",
  "00033333": "refused",
  "00044444": "invalid",
};

export const testBankMessages = {
  unknown:
    "Test payments only: use sort code 10-88-00 with account number 00012345 (payments succeed), 33333335 (payments fail) or 00033333 (the bank refuses the Direct Debit).",
  invalid: "Your bank account number is invalid: the bank did not accept it, so no Direct Debit was set up.",
} as const;

/** The offline provider's answer to bank details: each field's message, as the form shows it. */
export function testBankProblems(details: BankDetails): Partial<Record<BankField, string>> {
  const problems = bankDetailsProblems(details);
  if (Object.keys(problems).length > 0) return problems;
  const account = accountNumberDigits(details.accountNumber)!;
  const outcome = sortCodeDigits(details.sortCode) === testSortCode ? testBankAccounts[account] : undefined;
  if (!outcome) return { accountNumber: testBankMessages.unknown };
  if (outcome === "invalid") return { accountNumber: testBankMessages.invalid };
  return {};
}
