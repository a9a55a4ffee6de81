import { Form, Link, redirect } from "react-router";
import type { Route } from "./+types/admin.pages.name.history";
import { ErrorPage } from "~/components/layout/error-page";
import { FormNotice } from "~/components/ui/form-notice";
import { TableScroll } from "~/components/ui/table-scroll";
import { isContentName } from "~/features/content/content.server";
import { compareContent } from "~/features/content/editor/compare";
import { fieldLabel, summaryLine } from "~/features/content/editor/field-labels";
import { contentFields } from "~/features/content/editor/field-tree";
import { editablePage } from "~/features/content/editor/pages";
import { issueFields } from "~/features/content/store";
import { adminMeta } from "~/features/staff/components/admin-shell";
import { Breadcrumbs } from "~/features/staff/components/breadcrumbs";
import { requireStaffPage } from "~/features/staff/staff.server";
import { answerForm, formText } from "~/infra/http/form-action.server";
import { pageWork } from "~/infra/http/page.server";
import { AppError } from "~/lib/errors";
import { londonStamp } from "~/lib/london-time";

function pageName(name: string) {
  if (!isContentName(name)) throw new AppError("not-found", "There is no such page.");
  return name;
}

const versionId = (value: string | null) => (value && /^[0-9]{1,9}$/.test(value) ? Number(value) : undefined);

// /admin/pages/:name/history: every published version with who and when; Compare one with the
// current version, field by field; Restore one (asked first), which publishes a copy of it.
export const loader = pageWork("A page's history", async ({ request, context, params }: Route.LoaderArgs) => {
  await requireStaffPage(context.services, request, "pages");
  const name = pageName(params.name);
  const store = context.services.contentStore;
  const query = new URL(request.url).searchParams;
  const [history, content] = await Promise.all([store.history(name), context.services.content()]);
  const current = content[name] as unknown;
  const compareId = versionId(query.get("compare"));
  const compared = compareId ? await store.version(name, compareId) : undefined;
  const restoreId = versionId(query.get("restore"));
  const restoring = restoreId ? history.find((v) => v.id === restoreId) : undefined;
  const restored = versionId(query.get("restored"));
  return {
    name,
    title: editablePage(name).title,
    versions: history.map((v) => ({
      id: v.id,
      number: v.number,
      at: v.publishedAt,
      by: v.publishedBy.email,
      source: v.source,
      restoredFrom: v.restoredFrom,
    })),
    compared: compared
      ? {
          id: compared.id,
          number: compared.number,
          changes: compareContent(contentFields(name), compared.content, current),
        }
      : null,
    restoring: restoring ? { id: restoring.id, number: restoring.number } : null,
    restored: restored ?? null,
  };
});

export const action = pageWork("Restoring a page", async ({ request, context, params }: Route.ActionArgs) => {
  const staff = await requireStaffPage(context.services, request, "pages");
  const name = pageName(params.name);
  return answerForm(request, async (form) => {
    const id = versionId(formText(form, "id", 20));
    const result = id ? await context.services.contentStore.restore(name, id, staff) : undefined;
    if (!result) throw new AppError("not-found", "There is no such version of this page.");
    if (!result.ok) {
      const version = await context.services.contentStore.version(name, id!);
      const tree = contentFields(name);
      // Each message names its field, as the summary's lines do.
      const fields = issueFields(
        result.issues.map((issue) => ({
          path: issue.path,
          message: summaryLine(fieldLabel(tree, version?.content, issue.path), issue.message),
        })),
      );
      throw new AppError("invalid", "Nothing was restored: that version does not pass today's checks.", { fields });
    }
    return redirect(`/admin/pages/${name}/history?restored=${result.value.number}`);
  });
});

export const meta: Route.MetaFunction = ({ data }) => adminMeta(data ? `History of ${data.title}` : "History");

const when = (at: Date | string) => londonStamp(at);
const how = (v: { source: string; restoredFrom: number | null }) =>
  v.source === "file"
    ? "From the site's files"
    : v.source === "restore"
      ? `Copy of version ${v.restoredFrom}`
      : "Published";

export default function PageHistory({ loaderData, actionData }: Route.ComponentProps) {
  const { name, title, versions, compared, restoring, restored } = loaderData;
  const newest = versions[0];
  return (
    <main id="main" className="page">
      <Breadcrumbs via={[{ label: title, to: `/admin/pages/${name}` }]} here="History" />
      <h1>History of {title}</h1>
      {restored && !actionData ? (
        <FormNotice ok>Restored: version {restored} is published, and visitors see it now.</FormNotice>
      ) : null}
      {actionData ? (
        <FormNotice
          ok={actionData.ok}
          details={
            actionData.fields ? (
              <ul>
                {Object.entries(actionData.fields).map(([path, problem]) => (
                  <li key={path}>{problem}</li>
                ))}
              </ul>
            ) : undefined
          }
        >
          {actionData.message}
        </FormNotice>
      ) : null}
      {restoring ? (
        <section className="notice restore-question" aria-labelledby="restore-heading">
          <h2 id="restore-heading">Restore version {restoring.number}?</h2>
          <p>
            A copy of version {restoring.number} is published as the newest version, and visitors see it at once.
            Nothing is lost: the current version stays in the history.
          </p>
          <Form method="post" className="form-actions">
            <input type="hidden" name="id" value={restoring.id} />
            <button type="submit" className="button">
              Restore version {restoring.number}
            </button>
            <Link to={`/admin/pages/${name}/history`}>Keep the current version</Link>
          </Form>
        </section>
      ) : null}
      <TableScroll label={`Published versions of ${title}`}>
        <table className="admin-table">
          <thead>
            <tr>
              <th scope="col">Version</th>
              <th scope="col">Published</th>
              <th scope="col">By</th>
              <th scope="col">How</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {versions.map((v) => (
              <tr key={v.id}>
                <th scope="row">
                  {v.number}
                  {v === newest ? " (current)" : ""}
                </th>
                <td data-label="Published">{when(v.at)}</td>
                <td data-label="By">{v.by ?? "The site"}</td>
                <td data-label="How">{how(v)}</td>
                <td data-label="Actions">
                  {v === newest ? null : (
                    <>
                      <Link to={`?compare=${v.id}`}>
                        Compare <span className="visually-hidden">version {v.number}</span>
                      </Link>{" "}
                      ·{" "}
                      <Link to={`?restore=${v.id}`}>
                        Restore <span className="visually-hidden">version {v.number}</span>
                      </Link>
                    </>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      {compared ? (
        <section aria-labelledby="compare-heading">
          <h2 id="compare-heading">Version {compared.number} compared with the current version</h2>
          {compared.changes.length === 0 ? (
            <p>They are the same.</p>
          ) : (
            <TableScroll label="What differs">
              <table className="admin-table content-changes">
                <thead>
                  <tr>
                    <th scope="col">Field</th>
                    <th scope="col">Version {compared.number}</th>
                    <th scope="col">Current</th>
                  </tr>
                </thead>
                <tbody>
                  {compared.changes.map((change) => (
                    <tr key={change.path}>
                      <th scope="row">{change.label}</th>
                      <td data-label="Version">{change.before || <em>(none)</em>}</td>
                      <td data-label="Current">{change.after || <em>(none)</em>}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          )}
        </section>
      ) : null}
    </main>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
