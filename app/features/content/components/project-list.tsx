import { useId, useRef, useState } from "react";
import { Link } from "react-router";
import { Picture } from "~/components/ui/picture";
import type { Project } from "../schema";
import { initialProjectCount, nextVisibleCount, projectListButton } from "../project-list-state";

/** A heading and its projects: four at first, Show more adds three, Hide projects goes back to four. */
export function ProjectList({ id, title, projects }: { id: string; title: string; projects: Project[] }) {
  const [visible, setVisible] = useState(Math.min(initialProjectCount, projects.length));
  const headingId = useId();
  const listRef = useRef<HTMLUListElement>(null);
  const action = projectListButton(visible, projects.length);

  function press() {
    if (!action) return;
    const next = nextVisibleCount(visible, projects.length, action);
    setVisible(next);
    // Keep keyboard users in place: after Show more, move to the first project revealed.
    if (action === "show-more") {
      requestAnimationFrame(() => listRef.current?.querySelectorAll<HTMLElement>(".project-card a")[visible]?.focus());
    }
  }

  return (
    <section id={id} className="section projects" aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      <ul ref={listRef} className="project-grid">
        {projects.map((project, i) => (
          <li key={project.slug} hidden={i >= visible}>
            <ProjectCard project={project} />
          </li>
        ))}
      </ul>
      {action ? (
        <button type="button" className="button button-secondary" aria-expanded={action === "hide"} onClick={press}>
          {action === "show-more" ? "Show more" : "Hide projects"}
        </button>
      ) : null}
    </section>
  );
}

function ProjectCard({ project }: { project: Project }) {
  return (
    <article className={`project-card${project.comingSoon ? " coming-soon" : ""}`}>
      <Picture
        image={project.imagePreview}
        sizes="(min-width: 70rem) 17rem, (min-width: 40rem) 45vw, 100vw"
        width={480}
        height={300}
        className="project-card-image"
      />
      <div className="project-card-body">
        <h3>
          <Link to={`/project/${project.slug}`} state={{ project }} prefetch="intent">
            {project.title}
          </Link>
        </h3>
        {project.comingSoon ? <p className="badge">Coming Soon</p> : null}
        <p>{project.info}</p>
      </div>
    </article>
  );
}
