// Rules shared by every form that asks for a person's name and e-mail address (booking, donating).

/** Letters of any alphabet, with spaces, hyphens and apostrophes between them (O'Brien, José, Anne-Marie). */
export const personNamePattern = /^\p{L}+(?:[ '’-]+\p{L}+)*$/u;

/** Something, an @, and a domain with at least one dot; no spaces. The mail server has the last word. */
export const emailPattern = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;
