import type { Config } from "~/infra/config.server";
import type { Database } from "~/infra/db/database.server";
import { RateLimiter } from "~/infra/rate-limit.server";
import type { Clock } from "~/lib/clock";
import { AppError } from "~/lib/errors";
import { knownDeviceCookie, knownDeviceUserId } from "./known-devices.server";
import { admitPasswordCheck, type PasswordCheckPlace } from "./passwords.server";
import {
  clearedSessionCookie,
  endSession,
  passwordMatches,
  sessionCookie,
  sessionTokenFrom,
  staffAccountByEmail,
  startSession,
  type StaffUser,
} from "./staff.server";

/**
 * The limits on failed staff sign-ins (decision 025): per address, per address and account, and per
 * account across all addresses, which a device the member signed in from before does not count
 * towards, so strangers cannot lock a member of staff out.
 */
export interface StaffSignInLimits {
  address: RateLimiter;
  addressAndAccount: RateLimiter;
  account: RateLimiter;
}

const quarterHour = 15 * 60_000;

/** The site's limits on staff sign-ins, kept in the database so every process counts together. */
export function staffSignInLimits(db: Database): StaffSignInLimits {
  return {
    address: new RateLimiter(db, { name: "staff-sign-ins-address", limit: 20, windowMs: quarterHour }),
    addressAndAccount: new RateLimiter(db, {
      name: "staff-sign-ins-address-account",
      limit: 10,
      windowMs: quarterHour,
    }),
    account: new RateLimiter(db, { name: "staff-sign-ins-account", limit: 50, windowMs: 4 * quarterHour }),
  };
}

interface SignInServices {
  db: Database;
  clock: Clock;
  config: Pick<Config, "production" | "publicUrl">;
  /** Signs known-device cookies. */
  sessionSecret: string;
  limits: { staffSignIns: StaffSignInLimits };
}

/** Whether the session cookie must be Secure: in production over https. */
export function secureCookies(config: SignInServices["config"]) {
  return config.production && config.publicUrl.startsWith("https:");
}

function minutes(seconds: number) {
  const m = Math.ceil(seconds / 60);
  return m === 1 ? "a minute" : `${m} minutes`;
}

/**
 * Signs a member of staff in, for the sign-in page and the JSON API alike: the limits on failed
 * attempts, the password check, a new session, and the known-device cookie. Every attempt is
 * counted before its password is checked (a right one is given back), so attempts sent at once
 * cannot all be checked. Answers the Set-Cookie headers; refuses with an AppError the visitor may read.
 */
export async function signIn(
  services: SignInServices,
  credentials: { email: string; password: string },
  from: { clientAddress: string; cookieHeader: string | null },
): Promise<{ cookies: string[] }> {
  // A place in the queue of password checks first: a flood beyond it is refused before any other work.
  const place = admitPasswordCheck();
  try {
    return await checkAndStart(services, credentials, from, place);
  } finally {
    place.leave();
  }
}

async function checkAndStart(
  services: SignInServices,
  credentials: { email: string; password: string },
  from: { clientAddress: string; cookieHeader: string | null },
  place: PasswordCheckPlace,
): Promise<{ cookies: string[] }> {
  const { db, clock, limits } = services;
  const email = credentials.email.trim().toLowerCase();
  const now = clock.now();
  const account = await staffAccountByEmail(db, email);
  const knownDevice =
    Boolean(account) && knownDeviceUserId(from.cookieHeader, services.sessionSecret, now) === account!.id;
  const counted: Array<[RateLimiter, string]> = [];
  const checks: Array<[RateLimiter, string, (wait: string) => string]> = [
    [
      limits.staffSignIns.address,
      from.clientAddress,
      (wait) => `Too many failed sign-in attempts from your address. Please wait ${wait} and try again.`,
    ],
    [
      limits.staffSignIns.addressAndAccount,
      `${from.clientAddress} ${email}`,
      (wait) => `Too many failed sign-in attempts. Please wait ${wait} and try again.`,
    ],
  ];
  if (!knownDevice) {
    checks.push([
      limits.staffSignIns.account,
      email,
      (wait) =>
        `This account has had many failed sign-in attempts, so for now it can only be signed in to from a device that has signed in to it before. Please use one, or wait ${wait}.`,
    ]);
  }
  for (const [limiter, key, message] of checks) {
    const result = await limiter.count(key, now);
    if (!result.allowed) {
      throw new AppError("too-many-requests", message(minutes(result.retryAfterSeconds)), {
        headers: { "Retry-After": String(result.retryAfterSeconds) },
      });
    }
    counted.push([limiter, key]);
  }
  const user = await passwordMatches(account, credentials.password, place);
  if (!user) throw new AppError("unauthorised", "The email or password is not right.");
  // Only failures count: a member of staff who mistypes is not locked out by their own successes.
  for (const [limiter, key] of counted) await limiter.giveBack(key, now);
  const { cookie } = await startSignedInSession(services, user, now);
  return { cookies: [cookie, knownDeviceCookie(services.sessionSecret, user.id, now, secureCookies(services.config))] };
}

/** A new session for this member (signing in, or joining through an invitation); answers its Set-Cookie header. */
export async function startSignedInSession(
  services: Pick<SignInServices, "db" | "config">,
  user: StaffUser,
  now: Date,
): Promise<{ cookie: string }> {
  const session = await startSession(services.db, user, now);
  return { cookie: sessionCookie(session.token, session.expiresAt, now, secureCookies(services.config)) };
}

/** Ends the request's session, if any; answers the Set-Cookie header that clears it. */
export async function signOut(services: SignInServices, request: Request): Promise<{ cookie: string }> {
  const token = sessionTokenFrom(request);
  if (token) await endSession(services.db, token);
  return { cookie: clearedSessionCookie(secureCookies(services.config)) };
}
