import { AlertDialog } from "~/components/ui/alert-dialog";

/**
 * The alert a page shows when its live ticket counts could not be set up (docs/specification.md,
 * section 8).
 */
export function LiveFeedAlert({ error, onClose }: { error: string | null; onClose(): void }) {
  return <AlertDialog open={error !== null} title="Something went wrong" message={error ?? ""} onClose={onClose} />;
}
