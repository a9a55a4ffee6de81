import { z } from "zod";
import {
  giftAidLimits,
  giftAidMessages,
  giftAidSchema,
  wantsGiftAid as ticked,
  type GiftAidDetails,
} from "~/lib/gift-aid-declaration";
import { fieldErrors } from "~/lib/forms";
import { isHttpsUrl } from "~/lib/links";
import { emailField, personNameField, requiredTextField } from "~/lib/validation";
import { parseDonationAmount } from "~/lib/donation-amount";
import { regularGiftScope } from "~/lib/gift-aid-declaration";

export const donationLimits = { name: 80, email: 99, ...giftAidLimits };

export const donationMessages = {
  name: "Invalid name: name must only contain letters and not be left blank.",
  email: "Invalid email: please enter a valid email address.",
  ...giftAidMessages,
  summary: "Invalid donation information: please check the details marked below.",
} as const;

// The declaration's rules are shared with a gift added to a booking (decision 085).
export {
  declarationWording,
  giftAidScopes,
  giftAidScopeLabels,
  regularGiftScope,
  normalisePostcode,
  taxpayerStatement,
  type GiftAidDetails,
  type GiftAidScope,
} from "~/lib/gift-aid-declaration";

const donorSchema = z.object({
  name: personNameField(donationMessages.name, donationLimits.name),
  email: emailField(donationMessages.email, donationLimits.email),
});

/** What the donation form sends: the amount, the donor, and the Gift Aid declaration if ticked. */
export interface DonationForm {
  amount: string;
  name: string;
  email: string;
  giftAid: boolean;
  firstName: string;
  surname: string;
  houseNameOrNumber: string;
  postcode: string;
  scope: string;
}
export type DonationField = keyof DonationForm;
export type DonationErrors = Partial<Record<DonationField, string>>;

export interface ValidDonation {
  amountPence: number;
  name: string;
  email: string;
  giftAid: GiftAidDetails | null;
}

/**
 * The donation form's rules, the same in the browser and on the server: an amount within the
 * bounds, a name and e-mail for the receipt, and, only when Gift Aid is ticked, the declaration's
 * name, house and postcode and which donations it covers. Each field gets its own message.
 */
export function validateDonation(
  input: unknown,
): { ok: true; data: ValidDonation } | { ok: false; errors: DonationErrors } {
  const form = (typeof input === "object" && input !== null ? input : {}) as Record<string, unknown>;
  const errors: DonationErrors = {};
  const amount = parseDonationAmount(form.amount);
  if (!amount.ok) errors.amount = amount.message;
  const donor = donorSchema.safeParse(form);
  collect(donor, errors);
  const giftAid = ticked(form.giftAid) ? giftAidSchema.safeParse(form) : undefined;
  if (giftAid) collect(giftAid, errors);
  if (!amount.ok || !donor.success || (giftAid && !giftAid.success)) return { ok: false, errors };
  return {
    ok: true,
    data: { amountPence: amount.pence, ...donor.data, giftAid: giftAid?.success ? giftAid.data : null },
  };
}

function collect(result: z.ZodSafeParseResult<unknown>, errors: DonationErrors) {
  if (!result.success) Object.assign(errors, fieldErrors(result.error), errors);
}

/** What POST /api/donations answers: the donation, and what the card form needs to pay for it. */
/** The visitor's own earlier attempt, proved by its payment's client secret (which only their browser has). */
export const ownDonationAttemptSchema = z.object({
  donationId: z.string().max(60),
  clientSecret: z.string().min(1).max(200),
});
export type OwnDonationAttempt = z.output<typeof ownDonationAttemptSchema>;

export interface StartedDonation {
  donationId: string;
  clientSecret: string;
  amountPence: number;
}

// The staff forms (the donations page's filters, a refund, a Gift Aid claim marked as made).

/** A donation's status, as staff read it. */
export const donationStatusLabels = {
  pending: "Waiting for payment",
  paid: "Paid",
  cancelled: "Cancelled",
  failed: "Failed",
  refund_pending: "Refund under way",
  refunded: "Refunded",
} as const;
export type DonationStatus = keyof typeof donationStatusLabels;

export const giftAidFilterLabels = { all: "All", with: "With Gift Aid", without: "Without Gift Aid" } as const;
export type GiftAidFilter = keyof typeof giftAidFilterLabels;

export const staffDonationMessages = {
  date: "Please enter a date as day, month and year.",
  toBeforeFrom: "The To date must be on or after the From date.",
  reason: "Please say why the donation is refunded (at most 500 characters).",
  claimDate: "Please enter the date the claim was made, today or earlier.",
  noDonations: "There are no donations in this claim.",
} as const;

const londonDayPattern = /^\d{4}-\d{2}-\d{2}$/;

/** Whether a YYYY-MM-DD text is a real calendar day. */
export function isCalendarDay(value: string): boolean {
  if (!londonDayPattern.test(value)) return false;
  const [y, m, d] = value.split("-").map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

const optionalDay = z
  .string()
  .trim()
  .optional()
  .transform((value) => value || undefined)
  .refine((value) => value === undefined || isCalendarDay(value), staffDonationMessages.date);

/** The donations page's filters, from its GET form; a bad one gets its message and is left out. */
export const donationFiltersSchema = z.object({
  from: optionalDay,
  to: optionalDay,
  giftAid: z.enum(Object.keys(giftAidFilterLabels) as [GiftAidFilter, ...GiftAidFilter[]]).catch("all"),
  status: z.enum(["all", ...(Object.keys(donationStatusLabels) as DonationStatus[])]).catch("all"),
  /** The donor's name (any part) or the start of their e-mail address (decision 077). */
  q: z
    .string()
    .trim()
    .transform((value) => value.slice(0, 200) || undefined)
    .catch(undefined),
});
export type DonationFilters = z.output<typeof donationFiltersSchema>;

/** Reads the filters from the page's query: every field that is wrong has a message and is ignored. */
export function readDonationFilters(search: URLSearchParams): {
  filters: DonationFilters;
  errors: Partial<Record<"from" | "to", string>>;
  values: Record<"from" | "to" | "giftAid" | "status" | "q", string>;
} {
  const values = {
    q: (search.get("q") ?? "").slice(0, 200),
    from: search.get("from") ?? "",
    to: search.get("to") ?? "",
    giftAid: search.get("giftAid") ?? "all",
    status: search.get("status") ?? "all",
  };
  const errors: Partial<Record<"from" | "to", string>> = {};
  const filters: DonationFilters = { from: undefined, to: undefined, giftAid: "all", status: "all", q: undefined };
  for (const field of ["from", "to"] as const) {
    const day = optionalDay.safeParse(values[field]);
    if (day.success) filters[field] = day.data;
    else errors[field] = staffDonationMessages.date;
  }
  if (filters.from && filters.to && filters.to < filters.from) {
    errors.to = staffDonationMessages.toBeforeFrom;
    filters.to = undefined;
  }
  const rest = donationFiltersSchema.pick({ giftAid: true, status: true, q: true }).parse(values);
  return { filters: { ...filters, ...rest }, errors, values };
}

/** Refund donation: why (kept with the refund, for the charity's books). */
export const donationRefundSchema = z.object({
  reason: requiredTextField(staffDonationMessages.reason, 500),
});

/** Mark as claimed: the claim date and exactly the donations the page listed. */
export const giftAidClaimSchema = z.object({
  claimedOn: z.string(staffDonationMessages.claimDate).trim().refine(isCalendarDay, staffDonationMessages.claimDate),
  donationIds: z.array(z.uuid(), staffDonationMessages.noDonations).min(1, staffDonationMessages.noDonations),
});

/** The most an external donation page's address may be. */
export const externalDonationPageMaxLength = 500;

export const externalDonationPageMessage =
  "Enter the full address of the donation page, starting with https:// (for example https://www.example.org/donate), or leave it empty to use this site's own Donate page.";

/**
 * The Settings page's External donation page (PRODUCT.md, the Donate button): empty for the
 * site's own /payment, else an https address by the one rule for staff's links (app/lib/links.ts),
 * which the button opens in a new tab.
 */
export function parseExternalDonationPage(
  input: string,
): { ok: true; url: string | null } | { ok: false; message: string } {
  const typed = input.trim();
  if (!typed) return { ok: true, url: null };
  if (typed.length > externalDonationPageMaxLength || !isHttpsUrl(typed)) {
    return { ok: false, message: externalDonationPageMessage };
  }
  return { ok: true, url: new URL(typed).href };
}

// A regular (monthly) gift (decision 089): the one-off form's fields, and the day of the month.

export const regularGiftMessages = {
  dayOfMonth: "Please choose the day of the month, from 1 to 28, for your monthly gift.",
  payBy: "Please choose how to pay: by card, or by Direct Debit where it is offered.",
} as const;

/**
 * How a monthly gift is paid, as the form's "Pay by" choice names it (`?pay=` in the address), and
 * as the provider and the database name it (decision 092).
 */
export const payByMethods = { card: "card", "direct-debit": "bacs_debit" } as const;
export type PayBy = keyof typeof payByMethods;
export type GiftPaymentMethod = (typeof payByMethods)[PayBy];

/** How staff and donors read a gift's way of paying. */
export const paymentMethodLabels: Record<GiftPaymentMethod, string> = { card: "Card", bacs_debit: "Direct Debit" };

/** A Direct Debit mandate's state, as staff read it. */
export const mandateStatusLabels = {
  pending: "Being set up by the bank",
  active: "Active",
  inactive: "Inactive: refused or cancelled at the bank",
} as const;

/** A Direct Debit gift's state where the card's words would be wrong. */
export const directDebitStatusLabels: Partial<Record<RegularGiftStatus, string>> = {
  incomplete: "Direct Debit set up: the first payment is on its way",
  failing: "A Direct Debit payment failed: please check the bank details",
};

/** A gift's state in words, for the way it is paid (and whether its bank details are in). */
export function giftStatusLabel(status: RegularGiftStatus, method: string, hasMandate: boolean): string {
  const bank = method === "bacs_debit" && (status !== "incomplete" || hasMandate);
  return (bank ? directDebitStatusLabels[status] : undefined) ?? regularGiftStatusLabels[status];
}

/** The days a monthly payment can be taken: every month has them. */
export const giftDays = { first: 1, last: 28 } as const;

export interface ValidRegularGift extends ValidDonation {
  dayOfMonth: number;
}

/**
 * The monthly gift form's rules, the same in the browser and on the server: the one-off form's
 * (amount, name, e-mail, Gift Aid's name and address), a day from 1 to 28, and, when Gift Aid is
 * ticked, HMRC's enduring declaration (this gift and all future ones until cancelled) whatever
 * scope was sent.
 */
export function validateRegularGift(
  input: unknown,
): { ok: true; data: ValidRegularGift } | { ok: false; errors: DonationErrors & { dayOfMonth?: string } } {
  const form = (typeof input === "object" && input !== null ? input : {}) as Record<string, unknown>;
  const base = validateDonation({ ...form, scope: "this-donation" });
  const dayText = typeof form.dayOfMonth === "number" ? String(form.dayOfMonth) : form.dayOfMonth;
  const day = typeof dayText === "string" && /^\s*\d{1,2}\s*$/.test(dayText) ? Number(dayText) : NaN;
  const dayOk = Number.isInteger(day) && day >= giftDays.first && day <= giftDays.last;
  if (!base.ok || !dayOk) {
    return {
      ok: false,
      errors: { ...(base.ok ? {} : base.errors), ...(!dayOk && { dayOfMonth: regularGiftMessages.dayOfMonth }) },
    };
  }
  const giftAid = base.data.giftAid ? { ...base.data.giftAid, scope: regularGiftScope } : null;
  return { ok: true, data: { ...base.data, giftAid, dayOfMonth: day } };
}

/** The visitor's own earlier attempt at a monthly gift, proved by its first payment's client secret. */
export const ownGiftAttemptSchema = z.object({
  regularGiftId: z.string().max(60),
  clientSecret: z.string().min(1).max(200),
});
export type OwnGiftAttempt = z.output<typeof ownGiftAttemptSchema>;

/** What POST /api/regular-gifts answers: the gift, its first payment, and what the card form needs. */
export interface StartedRegularGift {
  regularGiftId: string;
  donationId: string;
  clientSecret: string;
  amountPence: number;
}

/** A regular gift's state, as the donor and staff read it. */
export const regularGiftStatusLabels = {
  incomplete: "Waiting for the first payment",
  active: "Active",
  failing: "A payment failed: the card is being tried again",
  paused: "Paused",
  cancelled: "Cancelled",
} as const;
export type RegularGiftStatus = keyof typeof regularGiftStatusLabels;

/** The states staff filter monthly gifts by on /admin/regular-giving (and `all`). */
export const regularGiftFilters = ["all", "active", "failing", "paused", "incomplete", "cancelled"] as const;
export type RegularGiftFilter = (typeof regularGiftFilters)[number];

/** The longest pause a donor can choose for their monthly gift, in months (decision 090). */
export const longestPause = 3;

/** "the 5th", "the 22nd": the day a monthly payment is taken. */
export function dayOfMonthWords(day: number): string {
  const tens = day % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : (["th", "st", "nd", "rd"][day % 10] ?? "th");
  return `the ${day}${suffix}`;
}
