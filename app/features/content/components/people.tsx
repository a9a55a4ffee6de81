import { Picture } from "~/components/ui/picture";
import type { TeamMember, Trustee } from "../schema";

export function TeamCards({ team }: { team: TeamMember[] }) {
  return (
    <section className="section" aria-labelledby="meet-the-team">
      <h2 id="meet-the-team">Meet The Team</h2>
      <ul className="team-grid">
        {team.map((member) => (
          <li key={member.name} className="team-card">
            <Picture image={member.image} sizes="10rem" width={320} height={320} className="team-card-image" />
            <h3>{member.name}</h3>
            <p className="team-card-position">{member.position}</p>
            <blockquote>
              <p>{member.quote}</p>
            </blockquote>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function TrusteesList({ trustees }: { trustees: Trustee[] }) {
  return (
    <section className="section" aria-labelledby="meet-the-trustees">
      <h2 id="meet-the-trustees">Meet the trustees</h2>
      <ul className="trustee-list">
        {trustees.map((trustee) => (
          <li key={trustee.name}>
            <h3>{trustee.name}</h3>
            <p>
              {trustee.position} <span className="trustee-job">({trustee.job})</span>
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}
