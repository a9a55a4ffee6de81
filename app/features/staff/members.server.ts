import crypto from "node:crypto";
import { and, asc, eq, gt, isNull, ne } from "drizzle-orm";
import { recordAudit } from "~/infra/audit/audit.server";
import type { Database } from "~/infra/db/database.server";
import { queueMail } from "~/infra/email/outbox.server";
import { AppError } from "~/lib/errors";
import { emailPattern } from "~/lib/validation";
import { staffInvitations, staffSessions, staffUsers } from "~db/schema";
import { staffInvitationMail, type InvitingCharity } from "./invitation-mail.server";
import { hashPassword, passwordProblem, verifyPassword } from "./passwords.server";
import { isStaffRole, roleNames, type StaffRole } from "./roles";
import { invitationGone } from "./schema";
import { tokenHash, type StaffUser } from "./staff.server";

// The staff list and its changes: inviting a member with a role (they choose their own password
// through a one-time link), changing a member's role and removing one (never the last Owner),
// changing one's own password, signing out of every device. Each change is written in the audit
// log in its own transaction; a role change names the member, so the log says who may do what.

/** How long an invitation link works. */
export const invitationLifetimeMs = 72 * 60 * 60 * 1000;

export interface StaffMemberView {
  id: string;
  email: string;
  role: StaffRole;
  addedAt: string;
  lastSignInAt: string | null;
}

export interface InvitationView {
  /** The SHA-256 of the link's token: it names the invitation without opening it. */
  id: string;
  email: string;
  /** The role the new account will have. */
  role: StaffRole;
  invitedBy: string;
  expiresAt: string;
}

/** The members, oldest first, and the invitations still open. */
export async function staffList(
  { db }: { db: Database },
  now: Date,
): Promise<{ members: StaffMemberView[]; invitations: InvitationView[] }> {
  const [members, invitations] = await Promise.all([
    db.select().from(staffUsers).orderBy(asc(staffUsers.createdAt), asc(staffUsers.email)),
    db
      .select()
      .from(staffInvitations)
      .where(
        and(
          eq(staffInvitations.purpose, "invitation"),
          isNull(staffInvitations.usedAt),
          gt(staffInvitations.expiresAt, now),
        ),
      )
      .orderBy(asc(staffInvitations.createdAt)),
  ]);
  return {
    members: members.map((m) => ({
      id: m.id,
      email: m.email,
      role: m.role,
      addedAt: m.createdAt.toISOString(),
      lastSignInAt: m.lastSignInAt?.toISOString() ?? null,
    })),
    invitations: invitations.map((i) => ({
      id: i.tokenHash,
      email: i.email,
      role: i.role,
      invitedBy: i.invitedByEmail,
      expiresAt: i.expiresAt.toISOString(),
    })),
  };
}

/** The address typed in `Email`, normalised; an "invalid" AppError beside the field if it is not one. */
function invitedAddress(input: string): string {
  const email = input.trim().toLowerCase();
  if (!email)
    throw new AppError("invalid", "Enter the e-mail address.", { fields: { email: "Enter the e-mail address." } });
  if (email.length > 200 || !emailPattern.test(email)) {
    const message = "Enter an e-mail address like name@example.org.";
    throw new AppError("invalid", message, { fields: { email: message } });
  }
  return email;
}

/** The role the invitation form starts with: the everyday work, and nothing of money or the staff. */
export const defaultInvitedRole: StaffRole = "events";

/** The role chosen in `Role`; an "invalid" AppError beside the field if it is not one of the four. */
function chosenRole(input: string): StaffRole {
  if (isStaffRole(input)) return input;
  const message = "Choose one of the four roles.";
  throw new AppError("invalid", message, { fields: { role: message } });
}

/**
 * Invites a new member of staff: an invitation (only the token's hash is kept) and its e-mail with
 * the link, written together with the audit entry. The token goes into the e-mail as a sealed word
 * (`seal`, the outbox's), so the stored e-mail never holds a link that works, and once sent nothing
 * stored does (decision 054). A live invitation for the same address is replaced (its link stops
 * working). Answers the invitation's id, for `outbox.deliver`.
 */
export async function inviteStaff(
  {
    db,
    charity,
    outbox,
  }: { db: Database; charity: InvitingCharity; outbox: { seal(words: Record<string, string>): string } },
  staff: StaffUser,
  input: { email: string; role?: string },
  now: Date,
): Promise<{ id: string; email: string; replaced: boolean }> {
  const email = invitedAddress(input.email);
  const role = chosenRole(input.role || defaultInvitedRole);
  const website = charity.website.replace(/\/$/, "");
  const token = crypto.randomBytes(32).toString("base64url");
  const id = tokenHash(token);
  const expiresAt = new Date(now.getTime() + invitationLifetimeMs);
  return db.transaction(async (tx) => {
    const [member] = await tx.select({ id: staffUsers.id }).from(staffUsers).where(eq(staffUsers.email, email));
    if (member) {
      const message = `${email} is already a member of staff.`;
      throw new AppError("conflict", message, { fields: { email: message } });
    }
    const replaced = await tx
      .delete(staffInvitations)
      .where(
        and(
          eq(staffInvitations.purpose, "invitation"),
          eq(staffInvitations.email, email),
          isNull(staffInvitations.usedAt),
          gt(staffInvitations.expiresAt, now),
        ),
      )
      .returning({ id: staffInvitations.tokenHash });
    await tx.insert(staffInvitations).values({
      tokenHash: id,
      email,
      purpose: "invitation",
      role,
      invitedByEmail: staff.email,
      createdAt: now,
      expiresAt,
    });
    await queueMail(tx, {
      kind: "staff-invitation",
      about: id,
      message: staffInvitationMail({
        email,
        link: `${website}/admin/join/{{token}}`,
        expiresAt,
        charity: { name: charity.name, website },
      }),
      sealed: outbox.seal({ token }),
      now,
    });
    await recordAudit(tx, {
      staff,
      action: "staff.invited",
      subject: `invitation:${id.slice(0, 16)}`,
      summary:
        replaced.length > 0
          ? `Invited a new member of staff again, as ${roleNames[role].name} (the earlier link no longer works)`
          : `Invited a new member of staff, as ${roleNames[role].name}`,
      at: now,
    });
    return { id, email, replaced: replaced.length > 0 };
  });
}

/** Cancels an invitation not yet used: its link stops working. False when there was none open. */
export async function cancelInvitation(
  { db }: { db: Database },
  staff: StaffUser,
  id: string,
  now: Date,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [cancelled] = await tx
      .delete(staffInvitations)
      .where(
        and(
          eq(staffInvitations.tokenHash, id),
          eq(staffInvitations.purpose, "invitation"),
          isNull(staffInvitations.usedAt),
        ),
      )
      .returning({ id: staffInvitations.tokenHash });
    if (!cancelled) return false;
    await recordAudit(tx, {
      staff,
      action: "staff.invitation-cancelled",
      subject: `invitation:${id.slice(0, 16)}`,
      summary: "Cancelled an invitation to join the staff",
      at: now,
    });
    return true;
  });
}

/**
 * The condition for a one-time link (an invitation or a password reset) that still works: this
 * token, for this purpose, not used and not expired. Checked when the page opens and again, in the
 * transaction, when it is used.
 */
export function linkWorks(token: string, purpose: "invitation" | "reset", now: Date) {
  return and(
    eq(staffInvitations.tokenHash, tokenHash(token)),
    eq(staffInvitations.purpose, purpose),
    isNull(staffInvitations.usedAt),
    gt(staffInvitations.expiresAt, now),
  );
}

/** The address an invitation link is for, while it works (not used, not expired); else undefined. */
export async function openInvitation(
  { db }: { db: Database },
  token: string,
  now: Date,
): Promise<{ email: string } | undefined> {
  if (!/^[\w-]{20,100}$/.test(token)) return undefined;
  const [row] = await db
    .select({ email: staffInvitations.email })
    .from(staffInvitations)
    .where(linkWorks(token, "invitation", now));
  return row;
}

/** The new-password pair's problems, one per field, or undefined when it is acceptable. */
export function newPasswordProblems(
  password: string,
  repeat: string,
): { newPassword?: string; repeatPassword?: string } | undefined {
  const problem = passwordProblem(password);
  if (problem) return { newPassword: `The password ${problem}.` };
  if (password !== repeat) return { repeatPassword: "The two passwords are not the same." };
  return undefined;
}

/**
 * Joins through an invitation: the account with the chosen password, the invitation marked used,
 * in one transaction, so a link used twice at once makes one account. A link that does not work
 * (unknown, used, expired) is a "not-found" AppError with `invitationGone`, and changes nothing.
 */
export async function acceptInvitation(
  { db }: { db: Database },
  token: string,
  input: { newPassword: string; repeatPassword: string },
  now: Date,
): Promise<StaffUser> {
  const problems = newPasswordProblems(input.newPassword, input.repeatPassword);
  if (problems) throw new AppError("invalid", Object.values(problems)[0]!, { fields: problems });
  if (!(await openInvitation({ db }, token, now))) throw new AppError("not-found", invitationGone);
  // Hashed before the transaction: scrypt takes a while, and no lock need wait for it.
  const passwordHash = await hashPassword(input.newPassword);
  return db.transaction(async (tx) => {
    const [invitation] = await tx
      .update(staffInvitations)
      .set({ usedAt: now })
      .where(linkWorks(token, "invitation", now))
      .returning({
        email: staffInvitations.email,
        invitedBy: staffInvitations.invitedByEmail,
        role: staffInvitations.role,
      });
    if (!invitation) throw new AppError("not-found", invitationGone);
    const [user] = await tx
      .insert(staffUsers)
      .values({ email: invitation.email, passwordHash, role: invitation.role, createdAt: now })
      .onConflictDoNothing()
      .returning({ id: staffUsers.id, email: staffUsers.email, role: staffUsers.role });
    if (!user)
      throw new AppError("conflict", `There is already a staff account for ${invitation.email}. Sign in instead.`);
    await recordAudit(tx, {
      staff: user,
      action: "staff.joined",
      subject: `staff:${user.id}`,
      summary: "Joined the staff through an invitation and chose a password",
      at: now,
    });
    return user;
  });
}

/** The refusal when a change would leave the site without an Owner. */
function lastOwner(what: "changed" | "removed") {
  return new AppError(
    "conflict",
    what === "changed"
      ? "This is the last Owner, so their role cannot be changed. Make another member an Owner first."
      : "This is the last Owner, so they cannot be removed. Make another member an Owner first.",
  );
}

/**
 * Removes a member of staff: their sessions end with the account. Never the last Owner, so someone
 * can always manage the staff and the settings (a "conflict" AppError). Answers whether it was the
 * one asking (who is then signed out).
 */
export async function removeStaff(
  { db }: { db: Database },
  staff: StaffUser,
  memberId: string,
  now: Date,
): Promise<{ removed: boolean; self: boolean }> {
  return db.transaction(async (tx) => {
    // Every member's row is locked, so two removals at once cannot leave nobody.
    const members = await tx.select({ id: staffUsers.id, role: staffUsers.role }).from(staffUsers).for("update");
    const member = members.find((m) => m.id === memberId);
    if (!member) return { removed: false, self: false };
    if (members.length <= 1) {
      throw new AppError(
        "conflict",
        "This is the last member of staff, so they cannot be removed. Add another member first.",
      );
    }
    if (member.role === "owner" && members.filter((m) => m.role === "owner").length <= 1) throw lastOwner("removed");
    await tx.delete(staffUsers).where(eq(staffUsers.id, memberId));
    await recordAudit(tx, {
      staff,
      action: "staff.removed",
      subject: `staff:${memberId}`,
      summary: memberId === staff.id ? "Removed their own staff account" : "Removed a member of staff",
      at: now,
    });
    return { removed: true, self: memberId === staff.id };
  });
}

/**
 * Gives a member another role, at once (their next request is checked against it). Never takes the
 * last Owner's (a "conflict" AppError); the audit log says whose role changed, from what to what.
 * Answers the member's address and roles, or undefined when there is no such member.
 */
export async function changeRole(
  { db }: { db: Database },
  staff: StaffUser,
  input: { id: string; role: string },
  now: Date,
): Promise<{ email: string; from: StaffRole; to: StaffRole } | undefined> {
  const role = chosenRole(input.role);
  return db.transaction(async (tx) => {
    // Every member's row is locked, so two changes at once cannot leave no Owner.
    const members = await tx
      .select({ id: staffUsers.id, email: staffUsers.email, role: staffUsers.role })
      .from(staffUsers)
      .for("update");
    const member = members.find((m) => m.id === input.id);
    if (!member) return undefined;
    if (member.role === role) return { email: member.email, from: role, to: role };
    if (member.role === "owner" && members.filter((m) => m.role === "owner").length <= 1) throw lastOwner("changed");
    await tx.update(staffUsers).set({ role }).where(eq(staffUsers.id, member.id));
    await recordAudit(tx, {
      staff,
      action: "staff.role-changed",
      subject: `staff:${member.id}`,
      summary: `Changed ${member.email}'s role from ${roleNames[member.role].name} to ${roleNames[role].name}`,
      at: now,
    });
    return { email: member.email, from: member.role, to: role };
  });
}

/**
 * Changes the signed-in member's password, after checking the current one; every other session of
 * theirs ends (the one asking stays signed in).
 */
export async function changePassword(
  { db }: { db: Database },
  staff: StaffUser,
  input: { currentPassword: string; newPassword: string; repeatPassword: string },
  { now, sessionToken }: { now: Date; sessionToken: string | undefined },
): Promise<void> {
  const [row] = await db.select().from(staffUsers).where(eq(staffUsers.id, staff.id));
  if (!row || !(await verifyPassword(input.currentPassword, row.passwordHash))) {
    const message = "That is not your current password.";
    throw new AppError("invalid", message, { fields: { currentPassword: message } });
  }
  const problems = newPasswordProblems(input.newPassword, input.repeatPassword);
  if (problems) throw new AppError("invalid", Object.values(problems)[0]!, { fields: problems });
  const passwordHash = await hashPassword(input.newPassword);
  await db.transaction(async (tx) => {
    await tx.update(staffUsers).set({ passwordHash }).where(eq(staffUsers.id, staff.id));
    await tx
      .delete(staffSessions)
      .where(
        and(
          eq(staffSessions.userId, staff.id),
          ...(sessionToken ? [ne(staffSessions.tokenHash, tokenHash(sessionToken))] : []),
        ),
      );
    await recordAudit(tx, {
      staff,
      action: "staff.password-changed",
      subject: `staff:${staff.id}`,
      summary: "Changed their password; their other sessions ended",
      at: now,
    });
  });
}

/** Ends every session of the signed-in member, this one too. */
export async function signOutEverywhere({ db }: { db: Database }, staff: StaffUser, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(staffSessions).where(eq(staffSessions.userId, staff.id));
    await recordAudit(tx, {
      staff,
      action: "staff.signed-out-everywhere",
      subject: `staff:${staff.id}`,
      summary: "Signed out of every device",
      at: now,
    });
  });
}
