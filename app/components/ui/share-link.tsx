import { useState } from "react";
import { useHydrated } from "~/components/ui/use-hydrated";

interface ShareLinkProps {
  url: string;
  title: string;
  text: string;
  /** The button's words. */
  label: string;
}

/**
 * Shares a link with the phone's or computer's own share sheet, or where there is none copies it
 * and says so. Shown only once the page's scripts run: without them it could do nothing.
 */
export function ShareLink({ url, title, text, label }: ShareLinkProps) {
  const ready = useHydrated();
  const [said, setSaid] = useState("");
  if (!ready) return null;

  async function share() {
    if (typeof navigator.share === "function") {
      try {
        await navigator.share({ title, text, url });
        return;
      } catch (error) {
        // Closing the share sheet is not a failure; anything else falls back to copying.
        if (error instanceof DOMException && error.name === "AbortError") return;
      }
    }
    try {
      await navigator.clipboard.writeText(url);
      setSaid("The link is copied: paste it into a message to a friend.");
    } catch {
      setSaid(`Copy this link to share it: ${url}`);
    }
  }

  return (
    <>
      <button type="button" className="button button-secondary" onClick={() => void share()}>
        {label}
      </button>
      <span role="status" className="share-status">
        {said}
      </span>
    </>
  );
}
