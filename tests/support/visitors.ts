import crypto from "node:crypto";

/**
 * An address for a new visitor, as a proxy in front of the site would name it in X-Forwarded-For.
 * The test sites trust one proxy (`TRUST_PROXY=1`, tests/support/site-process.ts), so each test, and
 * each buyer a test makes through the API, is a visitor of its own, as real buyers are: the limits
 * per address (seats held, payment starts, declines, live feeds; decisions 025 to 027) then bite
 * only where a test means them to. The addresses are from 198.18.0.0/15, kept for benchmarks.
 */
export function newVisitorAddress(): string {
  const [a, b, c] = crypto.randomBytes(3);
  return `198.${18 + (a! & 1)}.${b}.${c}`;
}
