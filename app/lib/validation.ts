import { z } from "zod";

// The fields every form that asks for a person shares (booking, donating, volunteering, Gift Aid):
// the rules are the same everywhere; each form keeps its own messages, the specification's where
// it gives them.

/**
 * Letters of any alphabet (with their accents, however typed), with spaces, hyphens, apostrophes and
 * full stops (O'Brien, José, Anne-Marie, Dr J. Smith): it starts with a letter, and ends with a
 * letter or a full stop.
 */
export const personNamePattern = /^\p{L}\p{M}*(?:[\p{L}\p{M} '’.-]*[\p{L}\p{M}.])?$/u;

/**
 * Something, an @, and a domain with at least one dot. None of the characters that separate or
 * bracket addresses in a mail header (`,;:<>()[]\"`), no spaces or control characters: one field
 * holds one address, never a list. The mail server has the last word.
 */
export const emailPattern = /^[^\s\p{Cc}@,;:<>()[\]\\"]+@[^\s\p{Cc}@,;:<>()[\]\\".]+(\.[^\s\p{Cc}@,;:<>()[\]\\".]+)+$/u;

/** A person's name in letters (see personNamePattern), at most `max` characters; one message for every fault. */
export function personNameField(message: string, max: number) {
  return z.string(message).trim().min(1, message).max(max, message).regex(personNamePattern, message);
}

/** An e-mail address of at most `max` characters. */
export function emailField(message: string, max: number, tooLong: string = message) {
  return z.string(message).trim().max(max, tooLong).regex(emailPattern, message);
}

/** Text that must not be blank, of at most `max` characters. */
export function requiredTextField(message: string, max: number, tooLong: string = message) {
  return z.string(message).trim().min(1, message).max(max, tooLong);
}
