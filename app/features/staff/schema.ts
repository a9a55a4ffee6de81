// What the staff pages and their rules both say.

/** The answer to an invitation link that does not work (unknown, used, expired). */
export const invitationGone =
  "This link has expired or has already been used. Ask a member of staff to invite you again.";
