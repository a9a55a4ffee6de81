// A booking's reference is a UUID. The receipt also prints a short code (its first eight hex
// digits, "3F9A-1C2B") that is easy to read out at a door, and carries a QR code of a link to the
// booking's check-in page. Whatever staff type or scan, readBookingCode() makes sense of it; the
// door page and the server both use it.

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** "3f9a1c2b-…" → "3F9A-1C2B". */
export function shortCode(bookingRef: string): string {
  const hex = bookingRef.replace(/-/g, "").slice(0, 8).toUpperCase();
  return `${hex.slice(0, 4)}-${hex.slice(4)}`;
}

/** The path a receipt's QR code opens: the check-in page for that booking (staff only). */
export function checkInPath(bookingRef: string): string {
  return `/admin/check-in/ticket/${bookingRef}`;
}

export type BookingCode = { kind: "reference"; bookingRef: string } | { kind: "short"; prefix: string };

/**
 * A full reference (with or without dashes), a short code (spaces and dashes optional, any case),
 * or the receipt's QR link. Undefined for anything else.
 */
export function readBookingCode(typed: string): BookingCode | undefined {
  let text = typed.trim();
  const link = /\/admin\/check-in\/ticket\/([0-9a-fA-F-]{36})\/?(?:[?#].*)?$/.exec(text);
  if (link) text = link[1]!;
  const hex = text.replace(/[\s-]/g, "").toLowerCase();
  if (!/^[0-9a-f]+$/.test(hex)) return undefined;
  if (hex.length === 32) {
    const bookingRef = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
    return uuidPattern.test(bookingRef) ? { kind: "reference", bookingRef } : undefined;
  }
  if (hex.length === 8) return { kind: "short", prefix: hex };
  return undefined;
}

/** Whether a booking reference matches what was typed or scanned. */
export function codeMatches(code: BookingCode, bookingRef: string): boolean {
  return code.kind === "reference"
    ? bookingRef === code.bookingRef
    : bookingRef.replace(/-/g, "").startsWith(code.prefix);
}
