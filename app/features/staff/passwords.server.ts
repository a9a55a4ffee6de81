import crypto from "node:crypto";
import os from "node:os";
import { promisify } from "node:util";
import { AppError } from "~/lib/errors";

const scrypt = promisify(crypto.scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: crypto.ScryptOptions,
) => Promise<Buffer>;

// scrypt with OWASP's recommended cost (N=2^17, r=8, p=1): about 0.1-0.3 s a guess on one core.
const siteCost = { N: 2 ** 17, r: 8, p: 1, maxmem: 256 * 1024 * 1024 };
let cost = siteCost;

/**
 * For the unit and integration tests only (tests/support/vitest-setup.ts): new passwords hashed at
 * N=2^12, so that a test that makes staff accounts and signs them in does not spend most of its time
 * hashing (a quarter of a second a hash at the site's cost). A hash names its own cost and is checked
 * at it, so everything else is the same. The site never calls this; one test checks the site's cost.
 */
export function hashCheaplyInTests(cheap: boolean) {
  cost = cheap ? { ...siteCost, N: 2 ** 12 } : siteCost;
}
const keyLength = 32;

/**
 * scrypt runs on Node's small shared thread pool (four threads), which also reads the static files
 * from disk, and each hash keeps a core busy: a flood of sign-ins would stall every page. Half the
 * cores (one to two) hash at once; sixteen more checks wait their turn; a password check beyond
 * that is refused at once (decision 025).
 */
class HashQueue {
  private admitted = 0;
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly bounds: { running: number; waiting: number }) {}

  /** A place for one password check, or a 429 when every place, running and waiting, is taken. */
  admit(): PasswordCheckPlace {
    if (this.admitted >= this.bounds.running + this.bounds.waiting) throw busy();
    this.admitted += 1;
    let left = false;
    return {
      leave: () => {
        if (!left) this.admitted -= 1;
        left = true;
      },
    };
  }

  /** Runs `work` when one of the running places is free. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.bounds.running) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running += 1;
    try {
      return await work();
    } finally {
      // The running place passes straight to the next in line, or is freed.
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    }
  }
}

/** A place in the queue of password checks, taken before a sign-in's other work; leave it when done. */
export interface PasswordCheckPlace {
  leave(): void;
}

function busy() {
  return new AppError(
    "too-many-requests",
    "We are checking many passwords just now. Please try again in a few seconds.",
    { headers: { "Retry-After": "5" } },
  );
}

/**
 * Takes a place in the queue of password checks, or refuses at once (429) when all are taken. A
 * sign-in takes it first, so a flood's surplus costs no database work either.
 */
export function admitPasswordCheck(): PasswordCheckPlace {
  return hashes.admit();
}

/** How many password hashes run at once, and how many checks may wait for one. */
export const passwordCheckBounds = {
  running: Math.min(2, Math.max(1, Math.floor(os.availableParallelism() / 2))),
  waiting: 16,
};

const hashes = new HashQueue(passwordCheckBounds);

/** A self-describing hash: scrypt$N$r$p$salt$key (base64). */
export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.randomBytes(16);
  const key = await hashes.run(() => scrypt(password.normalize("NFKC"), salt, keyLength, cost));
  return ["scrypt", cost.N, cost.r, cost.p, salt.toString("base64"), key.toString("base64")].join("$");
}

/**
 * Whether the password matches the stored hash, checked in the given place in the queue of password
 * checks, or in one taken now (which may refuse with a "too-many-requests" AppError).
 */
export async function verifyPassword(password: string, stored: string, place?: PasswordCheckPlace): Promise<boolean> {
  const own = place ? undefined : admitPasswordCheck();
  try {
    const [scheme, n, r, p, saltText, keyText] = stored.split("$");
    if (scheme !== "scrypt" || !saltText || !keyText) return false;
    const expected = Buffer.from(keyText, "base64");
    const options = { N: Number(n), r: Number(r), p: Number(p), maxmem: cost.maxmem };
    const key = await hashes.run(() =>
      scrypt(password.normalize("NFKC"), Buffer.from(saltText, "base64"), expected.length, options),
    );
    return crypto.timingSafeEqual(key, expected);
  } finally {
    own?.leave();
  }
}

/** A hash of nothing, checked against when the e-mail is unknown so both answers take as long. */
let decoy: Promise<string> | undefined;
export function decoyHash(): Promise<string> {
  decoy ??= hashPassword(crypto.randomBytes(16).toString("hex"));
  return decoy;
}

export const passwordRules = { minLength: 12, maxLength: 200 } as const;

/** Why a new password is not acceptable, if it is not. */
export function passwordProblem(password: string): string | undefined {
  if (password.length < passwordRules.minLength) return `must be at least ${passwordRules.minLength} characters`;
  if (password.length > passwordRules.maxLength) return `must be at most ${passwordRules.maxLength} characters`;
  return undefined;
}
