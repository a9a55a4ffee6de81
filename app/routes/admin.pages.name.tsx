import { Form, Link, redirect, redirectDocument } from "react-router";
import type { Route } from "./+types/admin.pages.name";
import { ErrorPage } from "~/components/layout/error-page";
import { FormNotice } from "~/components/ui/form-notice";
import { ContentForm } from "~/features/content/components/content-form";
import { isContentName } from "~/features/content/content.server";
import { contentFields } from "~/features/content/editor/field-tree";
import { applyFormOp, formOpKinds, parseFormOp, type FormOp } from "~/features/content/editor/form-ops";
import { readPageForm } from "~/features/content/editor/page-form.server";
import { editablePage } from "~/features/content/editor/pages";
import { picturesForEditor } from "~/features/content/editor/pictures.server";
import { issueFields } from "~/features/content/store";
import { adminMeta } from "~/features/staff/components/admin-shell";
import { Breadcrumbs } from "~/features/staff/components/breadcrumbs";
import { requireStaffPage } from "~/features/staff/staff.server";
import { answerForm, readPostedForm, type FormHandler } from "~/infra/http/form-action.server";
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
} as const;

const draftSummary = "The draft is saved, but these must be put right before it can be published:";
const notPublished = "Nothing was published: please correct these fields.";

// /admin/pages/:name: a page's words and pictures as a form drawn from its schema; Save draft,
// Preview (the public page with the draft) and Publish (checked by the same schema; nothing is
// published while a field is wrong).
export const loader = pageWork("The page editor", async ({ request, context, params }: Route.LoaderArgs) => {
  await requireStaffPage(context.services, request);
  const name = pageName(params.name);
  const store = context.services.contentStore;
  const [draft, content, history, pictures] = await Promise.all([
    store.draft(name),
    context.services.content(),
    store.history(name),
    picturesForEditor(context.services),
  ]);
  const saved = new URL(request.url).searchParams.get("saved");
  const notice = saved && saved in notices ? notices[saved as keyof typeof notices] : null;
  const issues: FieldErrors =
    draft && notice && saved !== "published" ? issueFields(await store.check(name, draft.content)) : {};
  const last = history[0];
  return {
    ...editablePage(name),
    value: draft ? draft.content : (content[name] as unknown),
    draft: draft ? { at: draft.savedAt, by: draft.savedBy.email } : null,
    published: last ? { number: last.number, at: last.publishedAt, by: last.publishedBy.email } : null,
    pictures,
    notice,
    issues,
  };
});

export const action = pageWork("Saving a page", async ({ request, context, params }: Route.ActionArgs) => {
  const staff = await requireStaffPage(context.services, request);
  const name = pageName(params.name);
  const store = context.services.contentStore;
  const fields = contentFields(name);
  const form = await readPostedForm(request);
  const { value, problems } = await readPageForm(form, fields, context.services, staff);
  const hasProblems = Object.keys(problems).length > 0;

  // A list button without JavaScript: the form drawn again with the change, nothing saved.
  const change: FormHandler<unknown> = async () => {
    const op = parseFormOp(form.get("intent"));
    const applied = op ? applyFormOp(fields, value, op) : { value, focus: undefined };
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
        return redirect(`/admin/pages/${name}?saved=discarded`);
      },
      draft: async () => {
        await saveDraft();
        return redirect(`/admin/pages/${name}?saved=draft`);
      },
      // Preview: the public page with this draft in place of what is published (its banner leads back).
      preview: async () => {
        await saveDraft();
        return redirectDocument(`${editablePage(name).publicPath}?preview=${name}`);
      },
      publish: async () => {
        if (hasProblems) {
          throw new AppError("invalid", notPublished, {
            fields: { ...issueFields(await store.check(name, value)), ...problems },
          });
        }
        const published = await store.publish(name, value, staff);
        if (!published.ok) throw new AppError("invalid", notPublished, { fields: issueFields(published.issues) });
        return redirect(`/admin/pages/${name}?saved=published`);
      },
    },
    { values: () => value },
  );
});

export const meta: Route.MetaFunction = ({ data }) => adminMeta(data ? `Edit ${data.title}` : "Edit a page");

const when = (at: Date | string) => `${londonDate(at)} at ${londonTime(at)}`;

export default function EditPage({ loaderData, actionData }: Route.ComponentProps) {
  const { name, title, publicPath, draft, published } = loaderData;
  const previewPath = `${publicPath}?preview=${name}`;
  const issues = actionData?.fields ?? loaderData.issues;
  return (
    <main id="main" className="page narrow page-editor">
      <Breadcrumbs here={title} />
      <p>
        <Link to={`/admin/pages/${name}/history`}>History</Link> · <a href={publicPath}>See it as visitors do</a>
      </p>
      <h1>Edit {title}</h1>
      <p>
        {published
          ? `Version ${published.number}, published ${when(published.at)} by ${published.by ?? "the site's own files"}.`
          : "Not yet published from here: visitors see the site's own files."}{" "}
        {draft
          ? `This is a draft, saved ${when(draft.at)} by ${draft.by ?? "the site"}: visitors do not see it yet.`
          : null}
      </p>
      {loaderData.notice && !actionData ? <FormNotice ok>{loaderData.notice}</FormNotice> : null}
      {draft ? (
        <p>
          <a href={previewPath} target="_blank" rel="noreferrer">
            Open the preview <span className="visually-hidden">of the draft</span> (in a new tab)
          </a>
        </p>
      ) : null}
      <ContentForm
        key={name}
        fields={contentFields(name)}
        value={actionData?.values ?? loaderData.value}
        issues={issues}
        pictures={loaderData.pictures}
        focus={actionData?.focus}
        summary={actionData && !actionData.ok ? actionData.message : actionData ? notPublished : draftSummary}
      >
        <div className="form-actions page-editor-actions">
          <button type="submit" name="intent" value="draft" className="button button-secondary">
            Save draft
          </button>
          <button type="submit" name="intent" value="preview" className="button button-secondary">
            Preview
          </button>
          <button type="submit" name="intent" value="publish" className="button">
            Publish
          </button>
        </div>
      </ContentForm>
      {draft ? (
        <Form method="post" className="form">
          <button type="submit" name="intent" value="discard" className="button button-secondary">
            Throw the draft away
          </button>
        </Form>
      ) : null}
    </main>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
