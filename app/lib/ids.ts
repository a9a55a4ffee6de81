const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a path or body value can be one of our ids (events, booking references): checked before any query. */
export function isUuid(value: string): boolean {
  return uuidPattern.test(value);
}
