import { Picture } from "~/components/ui/picture";
import type { Testimonial as TestimonialData } from "../schema";

/** A review: the person's photo (or, without one, a plain circle with their initial), their words, name and job. */
export function Testimonial({
  testimonial,
  heading,
}: {
  testimonial: Omit<TestimonialData, "image"> & { image: TestimonialData["image"] | undefined };
  heading: string;
}) {
  return (
    <section className="section testimonial" aria-label={heading}>
      <h2>{heading}</h2>
      <figure>
        {testimonial.image ? (
          <Picture image={testimonial.image} sizes="8rem" width={160} height={160} className="testimonial-image" />
        ) : (
          <div className="testimonial-image testimonial-placeholder" aria-hidden="true">
            {testimonial.name.trim().charAt(0).toUpperCase()}
          </div>
        )}
        <blockquote>
          <p>{testimonial.testimonial}</p>
        </blockquote>
        <figcaption>
          <strong>{testimonial.name}</strong>, {testimonial.job}
        </figcaption>
      </figure>
    </section>
  );
}
