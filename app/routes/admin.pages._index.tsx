import { Link } from "react-router";
import type { Route } from "./+types/admin.pages._index";
import { ErrorPage } from "~/components/layout/error-page";
import { TableScroll } from "~/components/ui/table-scroll";
import { editablePages } from "~/features/content/editor/pages";
import { adminMeta } from "~/features/staff/components/admin-shell";
import { requireStaffPage } from "~/features/staff/staff.server";
import { pageWork } from "~/infra/http/page.server";
import { londonStamp } from "~/lib/london-time";

// /admin/pages: every page whose words and pictures staff edit, with who last published it, when,
// and whether a draft is waiting.
export const loader = pageWork("The pages list", async ({ request, context }: Route.LoaderArgs) => {
  await requireStaffPage(context.services, request, "pages");
  const store = context.services.contentStore;
  const pages = await Promise.all(
    editablePages.map(async (page) => {
      const [history, draft] = await Promise.all([store.history(page.name), store.draft(page.name)]);
      const last = history[0];
      return {
        ...page,
        published: last ? { number: last.number, at: last.publishedAt, by: last.publishedBy.email } : null,
        draft: draft ? { at: draft.savedAt, by: draft.savedBy.email } : null,
      };
    }),
  );
  return { pages };
});

export const meta: Route.MetaFunction = () => adminMeta("Pages");

const when = (at: Date | string) => londonStamp(at);

export default function Pages({ loaderData }: Route.ComponentProps) {
  return (
    <main id="main" className="page">
      <h1>Pages</h1>
      <p>
        The words and pictures of the public pages. Change a page, look at it with Preview, then Publish: visitors see
        it at once.
      </p>
      <TableScroll label="The pages">
        <table className="admin-table">
          <thead>
            <tr>
              <th scope="col">Page</th>
              <th scope="col">Last published</th>
              <th scope="col">Draft</th>
              <th scope="col">History</th>
            </tr>
          </thead>
          <tbody>
            {loaderData.pages.map((page) => (
              <tr key={page.name}>
                <th scope="row">
                  <Link to={`/admin/pages/${page.name}`}>{page.title}</Link>
                </th>
                <td data-label="Last published">
                  {page.published
                    ? `${when(page.published.at)} by ${page.published.by ?? "the site's own files"} (version ${page.published.number})`
                    : "Not yet: the site's own files"}
                </td>
                <td data-label="Draft">
                  {page.draft ? `Saved ${when(page.draft.at)} by ${page.draft.by ?? "the site"}` : "None"}
                </td>
                <td data-label="History">
                  <Link to={`/admin/pages/${page.name}/history`}>
                    History <span className="visually-hidden">of {page.title}</span>
                  </Link>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </main>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
