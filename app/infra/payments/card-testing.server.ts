import { and, count, eq, gt, lte, sql, type SQL } from "drizzle-orm";
import { createChallenge, randomInt, verifySolution, type Challenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";
import { z } from "zod";
import { AppError } from "~/lib/errors";
import { bookings, cardDeclines, donations, spentChallenges } from "~db/schema";
import { selectBuiltOnce, slot } from "~/infra/db/built-once.server";
import type { Queryable } from "../db/database.server";
import { storedSecret } from "../db/site-secrets.server";
import { visitorKey, type AttemptLimiter } from "../visitors.server";

// Card testing (decision 026): people with lists of stolen card numbers try them on donation and
// booking forms, hundreds in minutes. Three things stand in their way, all without any third party:
// - payment starts are limited per address (its keyed hash) through the site's rate limiter;
// - declined cards are counted (card_declines): an attempt declined a few times is refused, and so
//   is a new start from an address with many declines in the last hour;
// - when payment starts or declines spike site-wide, every start must carry a solved
//   proof-of-work challenge (ALTCHA): a second of a visitor's browser, but real work per card tried.

/** Payment starts (bookings and donations together) one address may make in `windowMs`. */
export const paymentStartsPerAddress = { limit: 20, windowMs: 15 * 60_000 } as const;
/** Declines after which an attempt is refused, and after which an address's new starts are, in `windowMs`. */
export const declineLimits = { perAttempt: 3, perAddress: 6, windowMs: 60 * 60_000 } as const;
/**
 * A spike, which turns the challenge on: more than `starts` payment starts, or more than `declines`
 * declines, site-wide in the last `windowMs`. A busy night for this charity is a few dozen
 * bookings in five minutes; card testers make hundreds, and are declined most of the time.
 */
export const spikeThresholds = { starts: 60, declines: 10, windowMs: 5 * 60_000 } as const;
/** A challenge's life, and its work: PBKDF2 rounds per try and how many tries on average (about a second in a phone). */
const challengeLife = 5 * 60_000;
const challengeCost = 1_000;
const challengeCounter = { min: 200, max: 2_000 };

const tooManyStarts =
  "Too many payments have been started from your internet connection. Please wait a few minutes, then try again.";
const tooManyDeclines =
  "Too many cards have been declined from your internet connection. Please wait an hour, or contact us to pay another way.";
export const attemptDeclinedTooOften =
  "This card payment has been declined too many times. Start again with another card, or contact us to pay another way.";
export const challengeMessage =
  "We are seeing unusually many payments right now. Your browser needs to do a moment's check before paying: wait for it, then press the button again.";

/** Counts one decline for an attempt (a booking's reference or a donation's id), with the address that started it. */
export async function recordDecline(db: Queryable, attempt: string, at: Date): Promise<number> {
  const clientKey = await startedBy(db, attempt);
  await db.insert(cardDeclines).values({ id: crypto.randomUUID(), attempt, clientKey, at });
  return declinesOf(db, attempt);
}

/** How many times an attempt's card was declined. */
export async function declinesOf(db: Queryable, attempt: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(cardDeclines).where(eq(cardDeclines.attempt, attempt));
  return row?.n ?? 0;
}

async function startedBy(db: Queryable, attempt: string): Promise<string | null> {
  if (!z.uuid().safeParse(attempt).success) return null;
  const [booking] = await db.select({ key: bookings.clientKey }).from(bookings).where(eq(bookings.bookingRef, attempt));
  if (booking) return booking.key;
  const [donation] = await db.select({ key: donations.clientKey }).from(donations).where(eq(donations.id, attempt));
  return donation?.key ?? null;
}

/**
 * What a payment start is judged by, in one query: the declines from this address in the last
 * hour, and site-wide in the spike's window the declines and the payment starts (bookings and
 * donations made).
 */
async function startCounts(db: Queryable, clientKey: string | null, now: Date) {
  const [row] = await startCountsReading(db, {
    clientKey,
    declinesSince: new Date(now.getTime() - declineLimits.windowMs),
    since: new Date(now.getTime() - spikeThresholds.windowMs),
  });
  return {
    fromAddress: row?.fromAddress ?? 0,
    declines: row?.declines ?? 0,
    starts: (row?.booked ?? 0) + (row?.donated ?? 0),
  };
}

/**
 * startCounts' one query, built once (decision 099). An unknown address (a null key) has no
 * declines of its own: `client_key = null` is never true.
 */
const startCountsReading = selectBuiltOnce((db: Queryable) => {
  const counted = (table: typeof cardDeclines | typeof bookings | typeof donations, where: SQL | undefined) =>
    sql<number>`(${db.select({ n: count() }).from(table).where(where)})`.mapWith(Number);
  const since = slot("since");
  return db
    .select({
      fromAddress: counted(
        cardDeclines,
        and(eq(cardDeclines.clientKey, slot("clientKey")), gt(cardDeclines.at, slot("declinesSince"))),
      ),
      declines: counted(cardDeclines, gt(cardDeclines.at, since)),
      booked: counted(bookings, gt(bookings.createdAt, since)),
      donated: counted(donations, gt(donations.createdAt, since)),
    })
    .from(sql`(select 1) as one`);
});

const spiking = (counts: { declines: number; starts: number }) =>
  counts.declines > spikeThresholds.declines || counts.starts > spikeThresholds.starts;

/** Whether payment starts or declines are spiking site-wide, so a start needs a solved challenge. */
export async function paymentsSpiking(db: Queryable, now: Date): Promise<boolean> {
  return spiking(await startCounts(db, null, now));
}

// The challenge's signing key is the site's own, made once and kept in the database; read once per
// database handle (a key never changes once made).
const secrets = new WeakMap<object, Promise<string>>();
function challengeSecret(db: Queryable, now: Date) {
  let secret = secrets.get(db);
  if (!secret) {
    secret = storedSecret(db, "payment-challenge", now);
    secret.catch(() => secrets.delete(db));
    secrets.set(db, secret);
  }
  return secret;
}

/** A new challenge, signed; it carries its expiry (by the site's clock), which the signature covers. */
export async function issueChallenge(db: Queryable, now: Date): Promise<Challenge> {
  return createChallenge({
    algorithm: "PBKDF2/SHA-256",
    cost: challengeCost,
    counter: randomInt(challengeCounter.min, challengeCounter.max),
    deriveKey,
    data: { expires: now.getTime() + challengeLife },
    hmacSignatureSecret: await challengeSecret(db, now),
  });
}

const payloadSchema = z.object({
  challenge: z.object({
    parameters: z.looseObject({ nonce: z.string().max(200), data: z.looseObject({ expires: z.number() }) }),
    signature: z.string().max(200),
  }),
  solution: z.looseObject({ counter: z.number(), derivedKey: z.string().max(200) }),
});

/**
 * Marks a solved challenge used: true the first time, false ever after, in whichever of the site's
 * processes it arrives (decision 047). The row lasts until the challenge's own expiry; expired
 * rows are deleted through their index at most once a minute per process.
 */
async function spendChallenge(db: Queryable, nonce: string, expiresAt: Date, now: Date): Promise<boolean> {
  const spent = await db
    .insert(spentChallenges)
    .values({ nonce, expiresAt })
    .onConflictDoNothing()
    .returning({ nonce: spentChallenges.nonce });
  const last = lastSweep.get(db) ?? Number.NEGATIVE_INFINITY;
  if (now.getTime() - last >= 60_000 || now.getTime() < last) {
    lastSweep.set(db, now.getTime());
    await db.delete(spentChallenges).where(lte(spentChallenges.expiresAt, now));
  }
  return spent.length === 1;
}
const lastSweep = new WeakMap<object, number>();

/** The widget's answer (base64 JSON, or the object itself): true when solved, signed by us, unexpired and unused. */
export async function challengeSolved(db: Queryable, answer: unknown, now: Date): Promise<boolean> {
  let value = answer;
  if (typeof answer === "string") {
    if (answer.length > 8_000) return false;
    try {
      value = JSON.parse(Buffer.from(answer, "base64").toString("utf8"));
    } catch {
      return false;
    }
  }
  const parsed = payloadSchema.safeParse(value);
  if (!parsed.success) return false;
  const { challenge, solution } = parsed.data;
  if (challenge.parameters.data.expires <= now.getTime()) return false;
  const result = await verifySolution({
    challenge: challenge as unknown as Challenge,
    solution: solution as unknown as { counter: number; derivedKey: string },
    deriveKey,
    hmacSignatureSecret: await challengeSecret(db, now),
  }).catch(() => ({ verified: false }));
  if (!result.verified) return false;
  return spendChallenge(db, challenge.parameters.nonce, new Date(challenge.parameters.data.expires), now);
}

/**
 * Checks a payment start (a booking or a donation) before anything is held or charged: the
 * address's starts and declines, and, during a spike, the solved challenge. Throws the AppError the
 * visitor is answered with; answers the visitor's key (a keyed hash of the address), which the
 * booking or donation keeps.
 */
export async function guardPaymentStart(
  {
    db,
    limits,
    config,
  }: {
    db: Queryable;
    limits: { paymentStarts: AttemptLimiter };
    /** "always": every start needs a solved challenge (PAYMENT_CHALLENGE), not only during a spike. */
    config: { paymentChallenge: "spike" | "always" };
  },
  visit: { clientAddress: string; challenge?: unknown },
  now: Date,
): Promise<string> {
  const when = config.paymentChallenge;
  const start = { clientKey: await visitorKey(db, visit.clientAddress, now), challenge: visit.challenge };
  const counts = await startCounts(db, start.clientKey, now);
  if (counts.fromAddress >= declineLimits.perAddress) throw new AppError("too-many-requests", tooManyDeclines);
  if (when === "always" || spiking(counts)) {
    if (!(await challengeSolved(db, start.challenge, now))) {
      throw new AppError("challenge-required", challengeMessage);
    }
  }
  if (!(await limits.paymentStarts.attempt(`payment-start:${start.clientKey}`, now))) {
    throw new AppError("too-many-requests", tooManyStarts);
  }
  return start.clientKey;
}
