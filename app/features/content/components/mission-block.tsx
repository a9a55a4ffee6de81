import type { Mission } from "../schema";

export function MissionBlock({ mission }: { mission: Mission }) {
  return (
    <section className="section mission" aria-labelledby="our-mission">
      <h2 id="our-mission">Our Mission</h2>
      <figure>
        <blockquote>
          <p>{mission.missionStatement}</p>
        </blockquote>
        <figcaption>{mission.author}</figcaption>
      </figure>
    </section>
  );
}
