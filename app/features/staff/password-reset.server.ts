import crypto from "node:crypto";
import { and, eq, isNull, ne } from "drizzle-orm";
import { recordAudit } from "~/infra/audit/audit.server";
import type { Database } from "~/infra/db/database.server";
import { queueMail } from "~/infra/email/outbox.server";
import { RateLimiter } from "~/infra/rate-limit.server";
import type { Clock } from "~/lib/clock";
import { AppError } from "~/lib/errors";
import { emailPattern } from "~/lib/validation";
import { staffInvitations, staffSessions, staffUsers } from "~db/schema";
import { staffPasswordResetMail, type InvitingCharity } from "./invitation-mail.server";
import { invitationLifetimeMs, linkWorks, newPasswordProblems } from "./members.server";
import { hashPassword } from "./passwords.server";
import { resetGone } from "./schema";
import { tokenHash, type StaffUser } from "./staff.server";

// A forgotten password (docs/decisions/072-password-reset.md): a one-time link by e-mail, with the
// invitation's rules. Only the token's hash is kept (a staff_invitations row of purpose `reset`),
// the e-mail holds it sealed (decision 054), it works once, for as long as an invitation. Asking
// answers the same whether or not the address has an account; choosing the new password ends the
// member's other sessions.

/** How long a reset link works: as long as an invitation's. */
export const resetLifetimeMs = invitationLifetimeMs;

/** The limits on asking for a reset link: per address asking (as sign-ins), and per account asked for. */
export interface PasswordResetLimits {
  address: RateLimiter;
  account: RateLimiter;
}

export function passwordResetLimits(db: Database): PasswordResetLimits {
  return {
    address: new RateLimiter(db, { name: "staff-password-resets-address", limit: 10, windowMs: 15 * 60_000 }),
    account: new RateLimiter(db, { name: "staff-password-resets-account", limit: 3, windowMs: 60 * 60_000 }),
  };
}

interface ResetServices {
  db: Database;
  charity: InvitingCharity;
  outbox: { seal(words: Record<string, string>): string };
}

/**
 * Writes a reset link for the account at `email`, if there is one: the link's row, its e-mail and
 * the audit entry together. An earlier link for the account still open stops working. `by` is the
 * Owner who sent it, or none when the member asked themselves. Answers the link's id (for
 * `outbox.deliver`), or undefined when there is no such account.
 */
export async function sendPasswordReset(
  { db, charity, outbox }: ResetServices,
  email: string,
  by: StaffUser | undefined,
  now: Date,
): Promise<{ id: string; email: string } | undefined> {
  const address = email.trim().toLowerCase();
  if (!address || address.length > 200 || !emailPattern.test(address)) return undefined;
  const website = charity.website.replace(/\/$/, "");
  const token = crypto.randomBytes(32).toString("base64url");
  const id = tokenHash(token);
  const expiresAt = new Date(now.getTime() + resetLifetimeMs);
  return db.transaction(async (tx) => {
    const [member] = await tx
      .select({ id: staffUsers.id, email: staffUsers.email, role: staffUsers.role })
      .from(staffUsers)
      .where(eq(staffUsers.email, address));
    if (!member) return undefined;
    await tx
      .delete(staffInvitations)
      .where(
        and(
          eq(staffInvitations.purpose, "reset"),
          eq(staffInvitations.email, address),
          isNull(staffInvitations.usedAt),
        ),
      );
    await tx.insert(staffInvitations).values({
      tokenHash: id,
      email: address,
      purpose: "reset",
      role: member.role,
      invitedByEmail: by?.email ?? address,
      createdAt: now,
      expiresAt,
    });
    await queueMail(tx, {
      kind: "staff-password-reset",
      about: id,
      message: staffPasswordResetMail({
        email: address,
        link: `${website}/admin/reset-password/{{token}}`,
        expiresAt,
        charity: { name: charity.name, website },
        ...(by && by.id !== member.id && { byOwner: by.email }),
      }),
      sealed: outbox.seal({ token }),
      now,
    });
    await recordAudit(tx, {
      staff: by ?? member,
      action: "staff.password-reset-sent",
      subject: `staff:${member.id}`,
      summary:
        by && by.id !== member.id
          ? `Sent ${member.email} a link to choose a new password`
          : "Asked for a link to choose a new password",
      at: now,
    });
    return { id, email: address };
  });
}

/**
 * The forgotten-password page's request: counted against the limits first (too many from one
 * address is a "too-many-requests" AppError; too many for one account sends nothing more, and says
 * nothing different), then a link for the account if there is one. Answers the link's id when an
 * e-mail was written. The caller answers the same words whatever this returns.
 */
export async function askForPasswordReset(
  services: ResetServices & { clock: Clock; limits: { passwordResets: PasswordResetLimits } },
  email: string,
  from: { clientAddress: string },
): Promise<{ id: string } | undefined> {
  const now = services.clock.now();
  const address = email.trim().toLowerCase();
  if (!address) {
    const message = "Enter the e-mail address you sign in with.";
    throw new AppError("invalid", message, { fields: { email: message } });
  }
  const byAddress = await services.limits.passwordResets.address.count(from.clientAddress, now);
  if (!byAddress.allowed) {
    const minutes = Math.ceil(byAddress.retryAfterSeconds / 60);
    throw new AppError(
      "too-many-requests",
      `Too many requests from your address. Please wait ${minutes === 1 ? "a minute" : `${minutes} minutes`} and try again.`,
      { headers: { "Retry-After": String(byAddress.retryAfterSeconds) } },
    );
  }
  if (!(await services.limits.passwordResets.account.attempt(address, now))) return undefined;
  return sendPasswordReset(services, address, undefined, now);
}

/** The address a reset link is for, while it works (not used, not expired, the account still there). */
export async function openPasswordReset(
  { db }: { db: Database },
  token: string,
  now: Date,
): Promise<{ email: string } | undefined> {
  if (!/^[\w-]{20,100}$/.test(token)) return undefined;
  const [row] = await db
    .select({ email: staffUsers.email })
    .from(staffInvitations)
    .innerJoin(staffUsers, eq(staffUsers.email, staffInvitations.email))
    .where(linkWorks(token, "reset", now));
  return row;
}

/**
 * Sets the new password through a reset link: the link marked used, the password changed and every
 * session of the member ended, in one transaction, so a link used twice at once works once. A link
 * that does not work is a "not-found" AppError with `resetGone`, and changes nothing. The caller
 * starts the member's new session.
 */
export async function resetPassword(
  { db }: { db: Database },
  token: string,
  input: { newPassword: string; repeatPassword: string },
  now: Date,
): Promise<StaffUser> {
  const problems = newPasswordProblems(input.newPassword, input.repeatPassword);
  if (problems) throw new AppError("invalid", Object.values(problems)[0]!, { fields: problems });
  if (!(await openPasswordReset({ db }, token, now))) throw new AppError("not-found", resetGone);
  // Hashed before the transaction: scrypt takes a while, and no lock need wait for it.
  const passwordHash = await hashPassword(input.newPassword);
  return db.transaction(async (tx) => {
    const [reset] = await tx
      .update(staffInvitations)
      .set({ usedAt: now })
      .where(linkWorks(token, "reset", now))
      .returning({ email: staffInvitations.email });
    if (!reset) throw new AppError("not-found", resetGone);
    const [user] = await tx
      .update(staffUsers)
      .set({ passwordHash })
      .where(eq(staffUsers.email, reset.email))
      .returning({ id: staffUsers.id, email: staffUsers.email, role: staffUsers.role });
    if (!user) throw new AppError("not-found", resetGone);
    await tx.delete(staffSessions).where(eq(staffSessions.userId, user.id));
    // Any other link for the account still open stops working too.
    await tx
      .delete(staffInvitations)
      .where(
        and(
          eq(staffInvitations.purpose, "reset"),
          eq(staffInvitations.email, user.email),
          ne(staffInvitations.tokenHash, tokenHash(token)),
          isNull(staffInvitations.usedAt),
        ),
      );
    await recordAudit(tx, {
      staff: user,
      action: "staff.password-reset",
      subject: `staff:${user.id}`,
      summary: "Chose a new password through a reset link; every session of theirs ended",
      at: now,
    });
    return user;
  });
}
