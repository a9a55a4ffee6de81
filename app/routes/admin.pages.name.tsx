import { useEffect, useRef, type MouseEvent } from "react";
import { Form, Link, redirect, redirectDocument } from "react-router";
import type { Route } from "./+types/admin.pages.name";
import { ErrorPage } from "~/components/layout/error-page";
import { FormNotice } from "~/components/ui/form-notice";
import { ContentForm } from "~/features/content/components/content-form";
import { isContentName } from "~/features/content/content.server";
import { publishChanges, type PublishChange } from "~/features/content/editor/changes";
import { fieldLabel } from "~/features/content/editor/field-labels";
import { contentFields, fieldId } from "~/features/content/editor/field-tree";
import { applyFormOp, formOpKinds, parseFormOp, type FormOp } from "~/features/content/editor/form-ops";
import { readPageForm } from "~/features/content/editor/page-form.server";
import { editablePage } from "~/features/content/editor/pages";
import { picturesForEditor } from "~/features/content/editor/pictures.server";
import {
  findSection,
  pageSections,
  sectionFields,
  sectionOf,
  withSection,
  type PageSection,
} from "~/features/content/editor/sections";
import type { ContentName } from "~/features/content/schema";
import { issueFields } from "~/features/content/store";
import { adminMeta } from "~/features/staff/components/admin-shell";
import { Breadcrumbs } from "~/features/staff/components/breadcrumbs";
import { requireStaffPage } from "~/features/staff/staff.server";
import { answerForm, formText, readPostedForm, type FormHandler } from "~/infra/http/form-action.server";
import { pageWork } from "~/infra/http/page.server";
import { AppError, type FieldErrors } from "~/lib/errors";
import { londonDate, londonTime } from "~/lib/london-time";

function pageName(name: string) {
  if (!isContentName(name)) throw new AppError("not-found", "There is no such page.");
  return name;
}

const notices = {
  draft: "Draft saved. Visitors still see the published page.",
  published: "Published: visitors see it now.",
  discarded: "Draft thrown away: this is the published page.",
  gone: "Nothing was published: the draft was published or thrown away meanwhile.",
  changed: "The draft changed while you were looking: these are its changes now.",
} as const;

const draftSummary = "The draft is saved, but these must be put right before it can be published:";
const notPublished = "Nothing was published: please correct these fields.";

/** The editor's address for a section of a page (the first section's is the page's own). */
function sectionHref(name: string, sections: PageSection[], id: string, extra = "") {
  const query = [id === sections[0]?.id ? "" : `section=${id}`, extra].filter(Boolean).join("&");
  return `/admin/pages/${name}${query ? `?${query}` : ""}`;
}

// /admin/pages/:name: a page's words and pictures as a form drawn from its schema, a section at a
// time for a long page (?section=projects; decision 075); Save draft, Preview (the public page
// with the draft) and Publish in a bar that stays in view. Publish first shows every change the
// draft makes (?review), and publishes once staff confirm; nothing is published while a field is wrong.
export const loader = pageWork("The page editor", async ({ request, context, params }: Route.LoaderArgs) => {
  await requireStaffPage(context.services, request, "pages");
  const name = pageName(params.name);
  const store = context.services.contentStore;
  const [draft, content, history, pictures] = await Promise.all([
    store.draft(name),
    context.services.content(),
    store.history(name),
    picturesForEditor(context.services),
  ]);
  const query = new URL(request.url).searchParams;
  const section = findSection(pageSections(contentFields(name)), query.get("section"));
  const saved = query.get("saved");
  const notice = saved && saved in notices ? notices[saved as keyof typeof notices] : null;
  const issues: FieldErrors =
    draft && notice && saved !== "published" ? issueFields(await store.check(name, draft.content)) : {};
  const last = history[0];
  const names = new Map(pictures.filter((p) => p.label !== p.src).map((p) => [p.src, p.label]));
  const review = query.has("review")
    ? {
        draftAt: draft ? draft.savedAt.toISOString() : null,
        changes: draft ? publishChanges(name, content[name], draft.content, (src) => names.get(src)) : [],
      }
    : null;
  return {
    ...editablePage(name),
    section: section.id,
    value: draft ? draft.content : (content[name] as unknown),
    draft: draft ? { at: draft.savedAt, by: draft.savedBy.email } : null,
    published: last ? { number: last.number, at: last.publishedAt, by: last.publishedBy.email } : null,
    pictures,
    notice,
    issues,
    review,
  };
});

export const action = pageWork("Saving a page", async ({ request, context, params }: Route.ActionArgs) => {
  const staff = await requireStaffPage(context.services, request, "pages");
  const name = pageName(params.name);
  const store = context.services.contentStore;
  const root = contentFields(name);
  const sections = pageSections(root);
  const form = await readPostedForm(request);
  // A form drawn before sections (no `section` posted) holds the whole page.
  const section = form.has("section")
    ? findSection(sections, formText(form, "section", 100))
    : { id: sections[0]!.id, title: "", keys: root.fields.map((f) => f.key) };
  const { value: posted, problems } = await readPageForm(form, sectionFields(root, section), context.services, staff);
  // The section as posted, in the page as it is saved now: the draft's other sections are kept.
  const value = withSection(
    (await store.draft(name))?.content ?? (await context.services.content())[name],
    section,
    posted,
  );
  const hasProblems = Object.keys(problems).length > 0;
  const here = (extra = "") => sectionHref(name, sections, section.id, extra);

  // A list button without JavaScript: the form drawn again with the change, nothing saved.
  const change: FormHandler<unknown> = async () => {
    const op = parseFormOp(form.get("intent"));
    const applied = op ? applyFormOp(root, value, op) : { value, focus: undefined };
    return { message: "", values: applied.value, fields: problems, ...(applied.focus && { focus: applied.focus }) };
  };
  const saveDraft = async (): Promise<void> => {
    const saved = await store.saveDraft(name, value, staff);
    if (hasProblems)
      throw new AppError("invalid", draftSummary, { fields: { ...issueFields(saved.issues), ...problems } });
  };
  return answerForm(
    form,
    {
      ...(Object.fromEntries(formOpKinds.map((kind) => [kind, change])) as Record<FormOp["op"], FormHandler<unknown>>),
      discard: async () => {
        await store.discardDraft(name, staff);
        return redirect(here("saved=discarded"));
      },
      // Save draft; with `next`, then the section asked for (a section's link pressed with changes typed).
      draft: async () => {
        await saveDraft();
        const next = findSection(sections, formText(form, "next", 100) || section.id);
        return redirect(sectionHref(name, sections, next.id, "saved=draft"));
      },
      // Preview: the public page with this draft in place of what is published (its banner leads back).
      preview: async () => {
        await saveDraft();
        return redirectDocument(`${editablePage(name).publicPath}?preview=${name}`);
      },
      // Publish, first step: the draft saved as it is, then its changes shown to be confirmed.
      review: async () => {
        const issues = { ...issueFields(await store.check(name, value)), ...problems };
        if (Object.keys(issues).length > 0) throw new AppError("invalid", notPublished, { fields: issues });
        await store.saveDraft(name, value, staff);
        return redirect(here("review"));
      },
      // Publish, confirmed: the draft whose changes were shown, unless it changed since.
      publish: async () => {
        const draft = await store.draft(name);
        if (!draft) return redirect(here("saved=gone"));
        if (draft.savedAt.toISOString() !== formText(form, "draftAt", 40))
          return redirect(here("review&saved=changed"));
        const published = await store.publish(name, draft.content, staff);
        if (!published.ok) {
          const first = sectionOf(sections, published.issues[0]?.path ?? "") ?? section;
          return redirect(sectionHref(name, sections, first.id, "saved=draft"));
        }
        return redirect(here("saved=published"));
      },
    },
    { values: () => value },
  );
});

export const meta: Route.MetaFunction = ({ data }) =>
  adminMeta(data ? (data.review ? `Publish ${data.title}?` : `Edit ${data.title}`) : "Edit a page");

const when = (at: Date | string) => `${londonDate(at)} at ${londonTime(at)}`;

export default function EditPage({ loaderData, actionData }: Route.ComponentProps) {
  const { name, title, publicPath, draft, published, review } = loaderData;
  const previewPath = `${publicPath}?preview=${name}`;
  const root = contentFields(name as ContentName);
  const sections = pageSections(root);
  const section = findSection(sections, loaderData.section);
  return (
    <main id="main" className="page narrow page-editor">
      <Breadcrumbs here={title} />
      <p>
        <Link to={`/admin/pages/${name}/history`}>History</Link> · <a href={publicPath}>See it as visitors do</a>
      </p>
      {review ? null : <h1>Edit {title}</h1>}
      {review ? null : (
        <p>
          {published
            ? `Version ${published.number}, published ${when(published.at)} by ${published.by ?? "the site's own files"}.`
            : "Not yet published from here: visitors see the site's own files."}{" "}
          {draft
            ? `This is a draft, saved ${when(draft.at)} by ${draft.by ?? "the site"}: visitors do not see it yet.`
            : null}
        </p>
      )}
      {loaderData.notice && !actionData ? (
        <FormNotice ok={!loaderData.notice.startsWith("Nothing")}>{loaderData.notice}</FormNotice>
      ) : null}
      {review ? (
        <PublishQuestion
          title={title}
          changes={review.changes}
          draftAt={review.draftAt}
          section={section.id}
          back={sectionHref(name, sections, section.id)}
        />
      ) : (
        <SectionEditor
          name={name}
          sections={sections}
          section={section}
          draft={draft !== null}
          previewPath={previewPath}
          loaderData={loaderData}
          actionData={actionData}
        />
      )}
    </main>
  );
}

function SectionEditor({
  name,
  sections,
  section,
  draft,
  previewPath,
  loaderData,
  actionData,
}: {
  name: string;
  sections: PageSection[];
  section: PageSection;
  draft: boolean;
  previewPath: string;
  loaderData: Route.ComponentProps["loaderData"];
  actionData: Route.ComponentProps["actionData"];
}) {
  const root = contentFields(name as ContentName);
  const fields = sectionFields(root, section);
  const issues = actionData?.fields ?? loaderData.issues;
  const value = actionData?.values ?? loaderData.value;
  const formArea = useRef<HTMLDivElement>(null);
  const saveButton = useRef<HTMLButtonElement>(null);
  const nextInput = useRef<HTMLInputElement>(null);
  const changedByButton = useRef(false);
  const divided = sections.length > 1;

  /** Another section's link, pressed with changes typed here: the draft is saved first, then it opens. */
  function goToSection(event: MouseEvent<HTMLAnchorElement>, id: string) {
    const form = formArea.current?.querySelector("form");
    if (!form || !nextInput.current || !saveButton.current) return;
    if (!changedByButton.current && !formChanged(form)) return;
    event.preventDefault();
    nextInput.current.value = id;
    form.requestSubmit(saveButton.current);
  }

  return (
    <>
      {draft ? (
        <p>
          <a href={previewPath} target="_blank" rel="noreferrer">
            Open the preview <span className="visually-hidden">of the draft</span> (in a new tab)
          </a>
        </p>
      ) : null}
      {divided ? (
        <nav aria-label="Parts of this page" className="editor-sections">
          <ol>
            {sections.map((s) => (
              <li key={s.id}>
                <Link
                  to={sectionHref(name, sections, s.id)}
                  aria-current={s.id === section.id ? "page" : undefined}
                  onClick={(event) => goToSection(event, s.id)}
                >
                  {s.title}
                </Link>
              </li>
            ))}
          </ol>
        </nav>
      ) : null}
      {/* The part shown is marked in the links above; its heading is for finding it by headings. */}
      {divided ? <h2 className="visually-hidden">{section.title}</h2> : null}
      <div
        ref={formArea}
        onClick={(event) => {
          // A list button changes the form in place: leaving the section then saves it first.
          const button = (event.target as HTMLElement).closest("button");
          if (button?.name === "intent" && formOpKinds.includes(button.value.split(" ")[0] as FormOp["op"]))
            changedByButton.current = true;
        }}
      >
        <ContentForm
          key={`${name}:${section.id}`}
          fields={fields}
          value={value}
          issues={issues}
          pictures={loaderData.pictures}
          focus={actionData?.focus}
          summary={actionData && !actionData.ok ? actionData.message : actionData ? notPublished : draftSummary}
          issueLabel={(path) => {
            const label = fieldLabel(root, value, path);
            const other = divided ? sectionOf(sections, path) : undefined;
            return other && other.id !== section.id ? `${other.title} › ${label}` : label;
          }}
          issueHref={(path) => {
            const other = divided ? sectionOf(sections, path) : undefined;
            return other && other.id !== section.id
              ? `${sectionHref(name, sections, other.id)}#${fieldId(path)}`
              : undefined;
          }}
        >
          <input type="hidden" name="section" value={section.id} />
          <input type="hidden" name="next" ref={nextInput} defaultValue="" />
          <div className="form-actions editor-bar" role="group" aria-label="Save or publish">
            <button ref={saveButton} type="submit" name="intent" value="draft" className="button button-secondary">
              Save draft
            </button>
            <button type="submit" name="intent" value="preview" className="button button-secondary">
              Preview
            </button>
            <button type="submit" name="intent" value="review" className="button">
              Publish
            </button>
          </div>
        </ContentForm>
      </div>
      {draft ? (
        <Form method="post" className="form">
          <input type="hidden" name="section" value={section.id} />
          <button type="submit" name="intent" value="discard" className="button button-secondary">
            Throw the draft away
          </button>
        </Form>
      ) : null}
    </>
  );
}

/** Whether anything on the form differs from how it was drawn (typed, ticked, chosen or picked). */
function formChanged(form: HTMLFormElement): boolean {
  return [...form.elements].some((element) => {
    if (element instanceof HTMLInputElement) {
      if (element.type === "file") return element.files !== null && element.files.length > 0;
      if (element.type === "checkbox" || element.type === "radio") return element.checked !== element.defaultChecked;
      if (element.name === "next") return false;
      return element.value !== element.defaultValue;
    }
    if (element instanceof HTMLTextAreaElement) return element.value !== element.defaultValue;
    if (element instanceof HTMLSelectElement) return [...element.options].some((o) => o.selected !== o.defaultSelected);
    return false;
  });
}

const quoted = (text: string) => (text === "" ? "(empty)" : `“${text}”`);

/** Publish's question: every change the draft makes, confirmed (or not) with the keyboard or a tap. */
function PublishQuestion({
  title,
  changes,
  draftAt,
  section,
  back,
}: {
  title: string;
  changes: PublishChange[];
  draftAt: string | null;
  section: string;
  back: string;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section aria-labelledby="publish-heading" className="publish-question">
      <h1 id="publish-heading" ref={heading} tabIndex={-1}>
        Publish {title}?
      </h1>
      {draftAt === null ? (
        <p>There is no draft to publish: the page is as visitors see it.</p>
      ) : changes.length === 0 ? (
        <p>The draft is the same as the published page: publishing it changes nothing visitors see.</p>
      ) : (
        <>
          <p>Visitors will see {changes.length === 1 ? "this change" : `these ${changes.length} changes`} at once:</p>
          <ul className="publish-changes">
            {changes.map((change) => (
              <li key={change.path}>
                <strong>{change.label}</strong>: <span className="publish-before">{quoted(change.before)}</span>{" "}
                <span aria-hidden="true">→</span>
                <span className="visually-hidden">becomes</span>{" "}
                <span className="publish-after">{quoted(change.after)}</span>
              </li>
            ))}
          </ul>
        </>
      )}
      <Form method="post" className="form-actions">
        <input type="hidden" name="section" value={section} />
        {draftAt ? <input type="hidden" name="draftAt" value={draftAt} /> : null}
        {draftAt ? (
          <button type="submit" name="intent" value="publish" className="button">
            Publish now
          </button>
        ) : null}
        <Link to={back}>Back to editing</Link>
      </Form>
    </section>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
