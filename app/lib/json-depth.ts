// JSON from outside nests at most this deep (docs/decisions/024-bad-input.md). Parsing a deeply
// nested text is cheap, but what comes after it recurses once a level: writing it back out
// (JSON.stringify, the database's jsonb), comparing it, walking it. 20,000 nested arrays in a 40 KB
// body once overflowed the stack of a draft's save.

/** The most levels of objects and arrays inside one another that JSON from outside may have. */
export const maxJsonDepth = 32;

export const tooDeepMessage = `is nested too deeply (at most ${maxJsonDepth} levels of objects and arrays)`;

/**
 * Whether the JSON text's objects and arrays nest deeper than `max`: one pass over the text, no
 * parsing and no recursion, so it is safe on any input; brackets inside strings do not count.
 */
export function nestsTooDeep(text: string, max: number = maxJsonDepth): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}
