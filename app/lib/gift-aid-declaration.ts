import { z } from "zod";
import { formatPounds } from "~/lib/money";
import { personNameField, requiredTextField } from "~/lib/validation";

// A Gift Aid declaration: HMRC's model words and the donor's name and home address, the same rules
// for a donation made on its own page and one added to a booking (decision 085).

export const giftAidLimits = { firstName: 40, surname: 40, houseNameOrNumber: 60, postcode: 10 } as const;

export const giftAidMessages = {
  firstName: "Please enter your first name, in letters, for Gift Aid.",
  surname: "Please enter your surname, in letters, for Gift Aid.",
  houseNameOrNumber: "Please enter your house name or number for Gift Aid.",
  postcode: "Please enter a UK postcode, such as SW1A 1AA.",
  scope: "Please choose which donations your Gift Aid declaration covers.",
} as const;

/** Which donations a Gift Aid declaration covers (HMRC allows a single or an enduring declaration). */
export const giftAidScopes = {
  "this-donation": "This donation only",
  "this-and-past-four-years": "This donation and any I have made in the past four years",
  "past-four-years-and-future": "This donation, any in the past four years, and all future donations until I cancel",
} as const;
/**
 * A regular gift's declaration (decision 089): HMRC's enduring declaration, this gift and every
 * future one until cancelled. Not offered on a one-off gift's form, which has its own three.
 */
export const regularGiftScope = "this-and-future" as const;
export type GiftAidScope = keyof typeof giftAidScopes | typeof regularGiftScope;

/** Every scope a declaration may have, as staff read it. */
export const giftAidScopeLabels: Record<GiftAidScope, string> = {
  ...giftAidScopes,
  [regularGiftScope]: "This monthly gift and all future donations until I cancel",
};

/** HMRC's model taxpayer statement, word for word. */
export const taxpayerStatement =
  "I am a UK taxpayer and understand that if I pay less Income Tax and/or Capital Gains Tax than the amount of Gift Aid claimed on all my donations in that tax year it is my responsibility to pay any difference.";

/** The declaration the donor makes, in HMRC's model wording for the scope chosen. */
export function declarationWording(scope: GiftAidScope, amountPence: number, charityName: string) {
  const amount = formatPounds(amountPence);
  if (scope === regularGiftScope) {
    return `I want to Gift Aid my monthly gift of ${amount}, and all donations I make in the future until I cancel, to ${charityName}. ${taxpayerStatement}`;
  }
  const what =
    scope === "this-donation"
      ? `my donation of ${amount}`
      : scope === "this-and-past-four-years"
        ? `my donation of ${amount} and any donations I have made in the past 4 years`
        : `my donation of ${amount} and any donations I make in the future or have made in the past 4 years`;
  return `I want to Gift Aid ${what} to ${charityName}. ${taxpayerStatement}`;
}

// A UK postcode: outward code (area, district) and inward code (sector, unit), by Royal Mail's
// rules for which letters may stand where; GIR 0AA is Girobank's historic one.
const postcodePattern =
  /^(?:GIR0AA|(?:[A-PR-UWYZ][0-9]{1,2}|[A-PR-UWYZ][A-HK-Y][0-9]{1,2}|[A-PR-UWYZ][0-9][A-HJKPSTUW]|[A-PR-UWYZ][A-HK-Y][0-9][ABEHMNPRVWXY])[0-9][ABD-HJLNP-UW-Z]{2})$/;

/** The postcode in its standard form ("sw1a1aa" → "SW1A 1AA"), or undefined if it is not a UK one. */
export function normalisePostcode(input: string): string | undefined {
  const compact = input.replace(/\s+/g, "").toUpperCase();
  if (!postcodePattern.test(compact)) return undefined;
  return `${compact.slice(0, -3)} ${compact.slice(-3)}`;
}

/** The declaration's fields: name and house and postcode for HMRC, and which donations it covers. */
export const giftAidSchema = z.object({
  firstName: personNameField(giftAidMessages.firstName, giftAidLimits.firstName),
  surname: personNameField(giftAidMessages.surname, giftAidLimits.surname),
  houseNameOrNumber: requiredTextField(giftAidMessages.houseNameOrNumber, giftAidLimits.houseNameOrNumber),
  postcode: z
    .string(giftAidMessages.postcode)
    .max(20, giftAidMessages.postcode)
    .transform((value, ctx) => {
      const postcode = normalisePostcode(value);
      if (!postcode) ctx.addIssue({ code: "custom", message: giftAidMessages.postcode });
      return postcode ?? value;
    }),
  scope: z.enum(Object.keys(giftAidScopes) as [GiftAidScope, ...GiftAidScope[]], giftAidMessages.scope),
});
export type GiftAidDetails = z.output<typeof giftAidSchema>;

/** Whether the form's Gift Aid box was ticked (JSON true, or a form's "true" / "on"). */
export function wantsGiftAid(value: unknown): boolean {
  return value === true || value === "true" || value === "on";
}

/**
 * The first name and surname Gift Aid asks for, read from the Name the donor already typed: split
 * at the last space ("Mary Ann Smith" → "Mary Ann", "Smith"), for the donor to correct if need be.
 */
export function giftAidNamesFrom(name: string): { firstName: string; surname: string } {
  const words = name.trim().replace(/\s+/g, " ");
  const cut = words.lastIndexOf(" ");
  const [firstName, surname] = cut === -1 ? [words, ""] : [words.slice(0, cut), words.slice(cut + 1)];
  return {
    firstName: firstName.slice(0, giftAidLimits.firstName),
    surname: surname.slice(0, giftAidLimits.surname),
  };
}
