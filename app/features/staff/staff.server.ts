import crypto from "node:crypto";
import { and, eq, gt, lt } from "drizzle-orm";
import { data, redirect } from "react-router";
import type { Database } from "~/infra/db/database.server";
import type { Clock } from "~/lib/clock";
import { AppError, type PageRefusal } from "~/lib/errors";
import { escapeHtml } from "~/lib/html";
import { staffSessions, staffUsers } from "~db/schema";
import { canAny, homeOf, refusalFor, type Capability, type StaffRole } from "./roles";
import { decoyHash, hashPassword, passwordProblem, verifyPassword, type PasswordCheckPlace } from "./passwords.server";

export const sessionCookieName = "kt_staff";
const sessionLifetimeMs = 8 * 60 * 60 * 1000;

export interface StaffUser {
  id: string;
  email: string;
  role: StaffRole;
}

export class StaffAccountError extends Error {}

function normaliseEmail(email: string) {
  return email.trim().toLowerCase();
}

export async function createStaffUser(
  db: Database,
  email: string,
  password: string,
  now: Date,
  role: StaffRole = "owner",
): Promise<StaffUser> {
  const problem = passwordProblem(password);
  if (problem) throw new StaffAccountError(`The password ${problem}.`);
  const address = normaliseEmail(email);
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(address)) throw new StaffAccountError(`"${email}" is not an e-mail address.`);
  const [row] = await db
    .insert(staffUsers)
    .values({ email: address, passwordHash: await hashPassword(password), role, createdAt: now })
    .onConflictDoNothing()
    .returning({ id: staffUsers.id, email: staffUsers.email, role: staffUsers.role });
  if (!row) throw new StaffAccountError(`There is already a staff account for ${address}.`);
  return row;
}

/** Creates the first staff account from ADMIN_EMAIL and ADMIN_PASSWORD when there is none yet. */
export async function ensureFirstStaffUser(
  db: Database,
  first: { email: string; password: string } | undefined,
  now: Date,
) {
  if (!first) return;
  if ((await db.$count(staffUsers)) > 0) return;
  try {
    await createStaffUser(db, first.email, first.password, now);
  } catch (error) {
    // Another process of the site, starting at the same moment, made it first.
    if (!(error instanceof StaffAccountError) || (await db.$count(staffUsers)) === 0) throw error;
  }
}

/** The account with this e-mail and its password hash, if there is one. */
export async function staffAccountByEmail(db: Database, email: string) {
  const [user] = await db
    .select({
      id: staffUsers.id,
      email: staffUsers.email,
      role: staffUsers.role,
      passwordHash: staffUsers.passwordHash,
    })
    .from(staffUsers)
    .where(eq(staffUsers.email, normaliseEmail(email)));
  return user;
}

/**
 * Whether the password is this account's (none: never), taking as long whether or not there is an
 * account; checked in `place` in the queue of password checks, or may refuse with a
 * "too-many-requests" AppError when too many checks are waiting.
 */
export async function passwordMatches(
  account: { id: string; email: string; role: StaffRole; passwordHash: string } | undefined,
  password: string,
  place?: PasswordCheckPlace,
): Promise<StaffUser | undefined> {
  const ok = await verifyPassword(password, account?.passwordHash ?? (await decoyHash()), place);
  return ok && account ? { id: account.id, email: account.email, role: account.role } : undefined;
}

/** The account for these credentials, or undefined; takes as long whether or not the e-mail exists. */
export async function authenticate(db: Database, email: string, password: string): Promise<StaffUser | undefined> {
  return passwordMatches(await staffAccountByEmail(db, email), password);
}

/** The SHA-256 of a session or invitation token, as kept in the database (the token itself never is). */
export function tokenHash(token: string) {
  return crypto.createHash("sha256").update(token).digest("hex");
}

/**
 * Starts a session (signing in, or joining through an invitation) and records it as the member's
 * last sign-in; the returned token goes in the cookie, only its hash in the database.
 */
export async function startSession(db: Database, user: Pick<StaffUser, "id">, now: Date) {
  const token = crypto.randomBytes(32).toString("base64url");
  const expiresAt = new Date(now.getTime() + sessionLifetimeMs);
  await db.insert(staffSessions).values({ tokenHash: tokenHash(token), userId: user.id, createdAt: now, expiresAt });
  await db
    .update(staffUsers)
    .set({ previousSignInAt: staffUsers.lastSignInAt, lastSignInAt: now })
    .where(eq(staffUsers.id, user.id));
  // Old sessions are swept as new ones start.
  await db.delete(staffSessions).where(lt(staffSessions.expiresAt, now));
  return { token, expiresAt };
}

export async function endSession(db: Database, token: string) {
  await db.delete(staffSessions).where(eq(staffSessions.tokenHash, tokenHash(token)));
}

export async function userForSession(db: Database, token: string, now: Date): Promise<StaffUser | undefined> {
  const [row] = await db
    .select({ id: staffUsers.id, email: staffUsers.email, role: staffUsers.role })
    .from(staffSessions)
    .innerJoin(staffUsers, eq(staffUsers.id, staffSessions.userId))
    .where(and(eq(staffSessions.tokenHash, tokenHash(token)), gt(staffSessions.expiresAt, now)));
  return row;
}

/** The session token the request's cookie carries; a cookie that cannot be decoded is no session. */
export function sessionTokenFrom(request: Request): string | undefined {
  const cookies = request.headers.get("Cookie") ?? "";
  for (const part of cookies.split(";")) {
    const [name, ...value] = part.trim().split("=");
    if (name !== sessionCookieName) continue;
    try {
      return decodeURIComponent(value.join("="));
    } catch {
      return undefined;
    }
  }
  return undefined;
}

export function sessionCookie(token: string, expiresAt: Date, now: Date, secure: boolean) {
  const maxAge = Math.max(0, Math.round((expiresAt.getTime() - now.getTime()) / 1000));
  return [
    `${sessionCookieName}=${encodeURIComponent(token)}`,
    "Path=/",
    "HttpOnly",
    "SameSite=Strict",
    `Max-Age=${maxAge}`,
    ...(secure ? ["Secure"] : []),
  ].join("; ");
}

export function clearedSessionCookie(secure: boolean) {
  return [
    `${sessionCookieName}=`,
    "Path=/",
    "HttpOnly",
    "SameSite=Strict",
    "Max-Age=0",
    ...(secure ? ["Secure"] : []),
  ].join("; ");
}

/** The signed-in staff member making this request, if any. */
export async function staffForRequest(
  { db, clock }: { db: Database; clock: Clock },
  request: Request,
): Promise<StaffUser | undefined> {
  const token = sessionTokenFrom(request);
  return token ? userForSession(db, token, clock.now()) : undefined;
}

/** Where the sign-in page may send a member of staff back to: an admin page of this site, nothing else. */
export function safeReturnPath(next: string | null | undefined): string {
  return next && /^\/admin(?:[/?][\w\-/.?=&%]*)?$/.test(next) && !next.startsWith("/admin/sign-in") ? next : "/admin";
}

/**
 * What a page or API needs of the member's role: a kind of work (app/features/staff/roles.ts), any
 * one of several, or "signed-in" for what every member may open (the staff frame, signing out).
 * "staff-home" is the staff home's: every member, but one whose role starts elsewhere (Door:
 * check-in) is sent there.
 */
export type StaffNeed = Capability | readonly Capability[] | "signed-in" | "staff-home";

function allowed(user: StaffUser, need: StaffNeed) {
  if (need === "staff-home") {
    const home = homeOf(user.role).href;
    if (home !== "/admin") throw redirect(home);
    return true;
  }
  return need === "signed-in" || canAny(user.role, need);
}

/** The 403 page's words for this member: which roles may open the page, and where theirs may go. */
export function pageRefusal(user: StaffUser, need: Capability | readonly Capability[]): PageRefusal {
  return {
    refused: {
      title: "You can't open this page",
      message: refusalFor(user.role, need).page,
      links: [homeOf(user.role)],
    },
  };
}

async function signedInMember(services: { db: Database; clock: Clock }, request: Request) {
  const user = await staffForRequest(services, request);
  if (user) return user;
  const url = new URL(request.url);
  throw redirect(`/admin/sign-in?next=${encodeURIComponent(safeReturnPath(url.pathname + url.search))}`);
}

/**
 * For an admin page: the signed-in member of staff whose role allows `need`; a redirect to the
 * sign-in page (that brings them back here afterwards) when nobody is signed in; and for a member
 * whose role does not reach the page, a 403 the page's error boundary shows as "You can't open
 * this page". Every admin loader and action calls it (loaders run side by side, so the layout's
 * own check does not cover its pages).
 */
export async function requireStaffPage(
  services: { db: Database; clock: Clock },
  request: Request,
  need: StaffNeed,
): Promise<StaffUser> {
  const user = await signedInMember(services, request);
  if (allowed(user, need)) return user;
  throw data(pageRefusal(user, need as Capability | readonly Capability[]), { status: 403 });
}

/**
 * For a staff route that answers with a file or a redirect, not a page (a CSV, an export, an
 * e-mail's html): as `requireStaffPage`, but a member whose role does not reach it gets the same
 * words as a short page of its own, with status 403.
 */
export async function requireStaffResource(
  services: { db: Database; clock: Clock },
  request: Request,
  need: StaffNeed,
): Promise<StaffUser> {
  const user = await signedInMember(services, request);
  if (allowed(user, need)) return user;
  const { title, message, links } = pageRefusal(user, need as Capability | readonly Capability[]).refused;
  const html =
    `<!doctype html><html lang="en-GB"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)} · Staff</title></head>` +
    `<body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>` +
    links.map((link) => `<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a></p>`).join("") +
    `</main></body></html>`;
  throw new Response(html, {
    status: 403,
    headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "private, no-store" },
  });
}

/**
 * For the staff API: the signed-in member of staff whose role allows `need`. Throws an
 * "unauthorised" AppError (401) when nobody is signed in, and a "forbidden" one (403) naming the
 * roles that may when theirs does not.
 */
export async function requireStaff(
  { db, clock }: { db: Database; clock: Clock },
  request: Request,
  need: StaffNeed,
): Promise<StaffUser> {
  const token = sessionTokenFrom(request);
  const user = token ? await userForSession(db, token, clock.now()) : undefined;
  if (!user) throw new AppError("unauthorised", "Sign in as staff to do this.");
  if (!allowed(user, need)) {
    throw new AppError("forbidden", refusalFor(user.role, need as Capability | readonly Capability[]).api);
  }
  return user;
}
