import crypto from "node:crypto";
import { promisify } from "node:util";

const scrypt = promisify(crypto.scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: crypto.ScryptOptions,
) => Promise<Buffer>;

// scrypt with OWASP's recommended cost (N=2^17, r=8, p=1): about 0.1-0.3 s a guess on one core.
const cost = { N: 2 ** 17, r: 8, p: 1, maxmem: 256 * 1024 * 1024 };
const keyLength = 32;

/** A self-describing hash: scrypt$N$r$p$salt$key (base64). */
export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.randomBytes(16);
  const key = await scrypt(password.normalize("NFKC"), salt, keyLength, cost);
  return ["scrypt", cost.N, cost.r, cost.p, salt.toString("base64"), key.toString("base64")].join("$");
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, saltText, keyText] = stored.split("$");
  if (scheme !== "scrypt" || !saltText || !keyText) return false;
  const expected = Buffer.from(keyText, "base64");
  const key = await scrypt(password.normalize("NFKC"), Buffer.from(saltText, "base64"), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: cost.maxmem,
  });
  return crypto.timingSafeEqual(key, expected);
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
