// Counts in words: "1 donation", "3 donations", "1 person", "2 people". One helper, so no page
// says "These 1 donations".

/** The word for `count` things: `one` for exactly one, else `many` (by default `one` with an s). */
export function pluralWord(count: number, one: string, many = `${one}s`): string {
  return count === 1 ? one : many;
}

/** The count and its word: "1 ticket", "0 tickets", "2 people". */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${pluralWord(count, one, many)}`;
}
