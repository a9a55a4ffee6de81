// What the staff pages and their rules both say.

/** The answer to an invitation link that does not work (unknown, used, expired). */
export const invitationGone =
  "This link has expired or has already been used. Ask a member of staff to invite you again.";

/** The answer to a reset link that does not work (unknown, used, expired). */
export const resetGone = "This link has expired or has already been used. Ask for a new one from the sign-in page.";

/** What the forgotten-password page always answers, whether or not there is an account for the address. */
export const resetAsked =
  "If there is a staff account for that address, we have sent it a link to choose a new password.";
