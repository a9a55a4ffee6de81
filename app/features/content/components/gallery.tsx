import { Picture } from "~/components/ui/picture";
import type { GalleryImage } from "../schema";

export function Gallery({ images }: { images: GalleryImage[] }) {
  if (images.length === 0) return null;
  return (
    <section className="section gallery" aria-labelledby="gallery">
      <h2 id="gallery">Gallery</h2>
      <ul className="gallery-grid">
        {images.map((item) => (
          <li key={item.image.src}>
            <figure>
              <Picture
                image={item.image}
                sizes="(min-width: 70rem) 22rem, (min-width: 40rem) 45vw, 100vw"
                width={480}
                height={300}
              />
              <figcaption>{item.description}</figcaption>
            </figure>
          </li>
        ))}
      </ul>
    </section>
  );
}
