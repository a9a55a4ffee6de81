import { donationLimits } from "./schema";

/**
 * The first name and surname Gift Aid asks for, read from the Name the donor already typed: split
 * at the last space ("Mary Ann Smith" → "Mary Ann", "Smith"), for the donor to correct if need be.
 */
export function giftAidNamesFrom(name: string): { firstName: string; surname: string } {
  const words = name.trim().replace(/\s+/g, " ");
  const cut = words.lastIndexOf(" ");
  const [firstName, surname] = cut === -1 ? [words, ""] : [words.slice(0, cut), words.slice(cut + 1)];
  return {
    firstName: firstName.slice(0, donationLimits.firstName),
    surname: surname.slice(0, donationLimits.surname),
  };
}
