import type { Config } from "~/infra/config.server";
import type { Database } from "~/infra/db/database.server";
import type { RateLimiter } from "~/infra/rate-limit.server";
import type { Clock } from "~/lib/clock";
import { AppError } from "~/lib/errors";
import {
  authenticate,
  clearedSessionCookie,
  endSession,
  sessionCookie,
  sessionTokenFrom,
  startSession,
  type StaffUser,
} from "./staff.server";

interface SignInServices {
  db: Database;
  clock: Clock;
  config: Pick<Config, "production" | "publicUrl">;
  limits: { staffSignIns: RateLimiter };
}

/** Whether the session cookie must be Secure: in production over https. */
export function secureCookies(config: SignInServices["config"]) {
  return config.production && config.publicUrl.startsWith("https:");
}

/**
 * Signs a member of staff in, for the sign-in page and the JSON API alike: the limits on failed
 * attempts (per address and per e-mail), the password check, and a new session. Answers the
 * Set-Cookie header; refuses with an AppError the visitor may read.
 */
export async function signIn(
  services: SignInServices,
  credentials: { email: string; password: string },
  clientAddress: string,
): Promise<{ cookie: string }> {
  const { db, clock, limits } = services;
  const email = credentials.email.trim().toLowerCase();
  const now = clock.now();
  // Only failures count towards the limits, so a member of staff who mistypes is not locked out by others' successes.
  const allowed =
    limits.staffSignIns.peek(`address:${clientAddress}`, now) && limits.staffSignIns.peek(`email:${email}`, now);
  if (!allowed) {
    throw new AppError("too-many-requests", "Too many failed sign-in attempts. Please wait 15 minutes and try again.", {
      headers: { "Retry-After": "900" },
    });
  }
  const user = await authenticate(db, email, credentials.password);
  if (!user) {
    limits.staffSignIns.attempt(`address:${clientAddress}`, now);
    limits.staffSignIns.attempt(`email:${email}`, now);
    throw new AppError("unauthorised", "The email or password is not right.");
  }
  return startSignedInSession(services, user, now);
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
