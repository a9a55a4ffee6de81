import crypto from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/infra/db/database.server";
import { RateLimiter } from "~/infra/rate-limit.server";
import { AppError } from "~/lib/errors";
import { engines, freshDatabase } from "../../../tests/support/databases";
import { testClock } from "../../../tests/support/clock";
import { staffUsers } from "~db/schema";
import { passwordCheckBounds } from "./passwords.server";
import { signIn, staffSignInLimits, type StaffSignInLimits } from "./sign-in.server";

const member = { email: "trustee@example.org", password: "the trustee's own password" };
const secret = "a session secret of at least thirty-two characters";

/**
 * The member's password hashed at a low scrypt cost (the cost is part of the stored hash), so these
 * tests check dozens of passwords in moments; a real account's hash costs far more.
 */
function quickHash(password: string) {
  const salt = crypto.randomBytes(16);
  const key = crypto.scryptSync(password, salt, 32, { N: 1024, r: 8, p: 1 });
  return ["scrypt", 1024, 8, 1, salt.toString("base64"), key.toString("base64")].join("$");
}

/** What each sign-in came to: "ok", or the refusal's code. */
async function outcome(attempt: Promise<unknown>): Promise<string> {
  try {
    await attempt;
    return "ok";
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
}

function tally(outcomes: string[]) {
  const counts: Record<string, number> = {};
  for (const o of outcomes) counts[o] = (counts[o] ?? 0) + 1;
  return counts;
}

describe.each(engines)("staff sign-in on %s", (engine) => {
  let database: DatabaseHandle;
  const clock = testClock("2026-11-22T09:00:00Z");
  beforeEach(async () => {
    database = await freshDatabase(engine);
    await database.db
      .insert(staffUsers)
      .values({ email: member.email, passwordHash: quickHash(member.password), createdAt: clock.now() });
  });
  afterEach(() => database.close());

  const services = (limits: StaffSignInLimits = staffSignInLimits(database.db)) => ({
    db: database.db,
    clock,
    config: { production: false, publicUrl: "http://localhost:3000" },
    sessionSecret: secret,
    limits: { staffSignIns: limits },
  });
  const limiter = (name: string, limit: number) => new RateLimiter(database.db, { name, limit, windowMs: 900_000 });
  const from = (clientAddress: string, cookieHeader: string | null = null) => ({ clientAddress, cookieHeader });

  it("counts every attempt before its password is checked: of 40 wrong ones sent at once, with a limit of 10, at most 10 are checked", async () => {
    const limits = { address: limiter("a", 10), addressAndAccount: limiter("b", 100), account: limiter("c", 100) };
    const outcomes = await Promise.all(
      Array.from({ length: 40 }, () =>
        outcome(signIn(services(limits), { ...member, password: "a wrong password" }, from("203.0.113.9"))),
      ),
    );
    const counts = tally(outcomes);
    expect(counts.unauthorised).toBeLessThanOrEqual(10);
    expect(counts["too-many-requests"]).toBeGreaterThanOrEqual(30);
    expect(counts.unauthorised! + counts["too-many-requests"]!).toBe(40);
  });

  it("lets the member in after strangers' wrong passwords from ten addresses, from a fresh address and from their known device", async () => {
    const { cookies } = await signIn(services(), member, from("198.51.100.1"));
    const knownDevice = cookies.find((c) => c.startsWith("kt_device="))!.split(";")[0]!;
    for (let i = 0; i < 10; i++) {
      expect(await outcome(signIn(services(), { ...member, password: "guess " + i }, from(`203.0.113.${i}`)))).toBe(
        "unauthorised",
      );
    }
    expect(await outcome(signIn(services(), member, from("198.51.100.2")))).toBe("ok");
    expect(await outcome(signIn(services(), member, from("198.51.100.1", `kt_staff=x; ${knownDevice}`)))).toBe("ok");
  });

  it("keeps the account's limit to unknown devices, lets a known device through, and still limits an attacker's address", async () => {
    const limits = { address: limiter("a", 100), addressAndAccount: limiter("b", 3), account: limiter("c", 4) };
    const { cookies } = await signIn(services(limits), member, from("198.51.100.1"));
    const knownDevice = cookies.find((c) => c.startsWith("kt_device="))!.split(";")[0]!;
    const wrong = { ...member, password: "a wrong password" };
    for (let i = 0; i < 4; i++) await outcome(signIn(services(limits), wrong, from(`203.0.113.${i}`)));
    // The account's limit is reached: a right password from a new device waits...
    expect(await outcome(signIn(services(limits), member, from("198.51.100.7")))).toBe("too-many-requests");
    // ...one from the member's known device does not, from wherever it is.
    expect(await outcome(signIn(services(limits), member, from("198.51.100.8", knownDevice)))).toBe("ok");
    // A cookie signed with another secret, or issued for another account, is no known device.
    const forged = knownDevice.replace(/.$/, (c) => (c === "A" ? "B" : "A"));
    expect(await outcome(signIn(services(limits), member, from("198.51.100.8", forged)))).toBe("too-many-requests");
    // A stolen known-device cookie does not lift the limit per address and account.
    for (let i = 0; i < 3; i++) await outcome(signIn(services(limits), wrong, from("203.0.113.50", knownDevice)));
    expect(await outcome(signIn(services(limits), member, from("203.0.113.50", knownDevice)))).toBe(
      "too-many-requests",
    );
  });
});

describe("the password checks of a sign-in flood", () => {
  let database: DatabaseHandle;
  beforeEach(async () => {
    database = await freshDatabase("pglite");
  });
  afterEach(() => database.close());

  it("run a few at a time: beyond a short queue, sign-ins are refused at once rather than wait", async () => {
    const clock = testClock("2026-11-22T09:00:00Z");
    const services = {
      db: database.db,
      clock,
      config: { production: false, publicUrl: "http://localhost:3000" },
      sessionSecret: secret,
      limits: { staffSignIns: staffSignInLimits(database.db) },
    };
    const outcomes = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        outcome(
          signIn(
            services,
            { email: `nobody${i}@example.org`, password: "a wrong password" },
            {
              clientAddress: `203.0.113.${i}`,
              cookieHeader: null,
            },
          ),
        ),
      ),
    );
    const counts = tally(outcomes);
    // Those running and waiting are checked (17 or 18); the others are told to try again shortly.
    const checked = passwordCheckBounds.running + passwordCheckBounds.waiting;
    expect(counts.unauthorised).toBe(checked);
    expect(counts["too-many-requests"]).toBe(40 - checked);
  });
});
