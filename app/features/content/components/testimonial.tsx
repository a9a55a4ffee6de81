import { Picture } from "~/components/ui/picture";
import type { Testimonial as TestimonialData } from "../schema";

export function Testimonial({ testimonial, heading }: { testimonial: TestimonialData; heading: string }) {
  return (
    <section className="section testimonial" aria-label={heading}>
      <h2>{heading}</h2>
      <figure>
        <Picture image={testimonial.image} sizes="8rem" width={160} height={160} className="testimonial-image" />
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
