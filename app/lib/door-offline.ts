// What the door page keeps on a phone for working offline, named in one place: the page writes
// it (features/door), and signing out (features/staff) deletes it, so a borrowed phone does not
// keep a list of names. Check-ins not yet sent are the exception: they stay until they are sent.

/** The service worker's cache (public/door-sw.js uses the same name). */
export const doorCacheName = "kilele-door-v1";
/** Every localStorage key the door page writes starts with this. */
export const doorStoragePrefix = "kilele-door";

/**
 * Deletes the kept door pages, and each event's kept list unless check-ins made on this phone are
 * still waiting to be sent (they go at the next sign-in).
 */
export async function forgetDoorData(): Promise<void> {
  try {
    for (let i = localStorage.length - 1; i >= 0; i--) {
      const key = localStorage.key(i);
      if (!key?.startsWith(`${doorStoragePrefix}:`)) continue;
      const stored = JSON.parse(localStorage.getItem(key) ?? "null") as { queue?: unknown[] } | null;
      if (!stored?.queue?.length) localStorage.removeItem(key);
    }
  } catch {
    // Nothing readable to keep.
  }
  if (typeof caches !== "undefined") await caches.delete(doorCacheName).catch(() => false);
}
