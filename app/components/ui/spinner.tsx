/** The spec's spinner: a turning ring with the text Loading... (still, when reduced motion is asked for). */
export function Spinner({ label = "Loading..." }: { label?: string }) {
  return (
    <div className="spinner" role="status">
      <span className="spinner-ring" aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}
