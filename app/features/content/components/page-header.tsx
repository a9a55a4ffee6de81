import type { ReactNode } from "react";
import { Picture } from "~/components/ui/picture";
import type { Image } from "~/lib/images";

/** The banner at the top of a content page: its picture (or video) and the page's one h1. */
export function PageHeader({ title, image, media }: { title: string; image?: Image; media?: ReactNode }) {
  return (
    <header className="page-header">
      {media ??
        (image ? (
          <Picture image={image} sizes="100vw" width={1600} height={1000} className="page-header-image" priority />
        ) : null)}
      <h1>{title}</h1>
    </header>
  );
}

export function TwoColumns({ col1Text, col2Text }: { col1Text: string; col2Text: string }) {
  return (
    <div className="two-columns">
      <p>{col1Text}</p>
      <p>{col2Text}</p>
    </div>
  );
}
