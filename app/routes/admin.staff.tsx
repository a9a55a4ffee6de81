import { useState } from "react";
import { Form, data, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/admin.staff";
import { ErrorPage } from "~/components/layout/error-page";
import { ConfirmDialog } from "~/components/ui/confirm-dialog";
import { TableScroll } from "~/components/ui/table-scroll";
import { adminMeta } from "~/features/staff/components/admin-shell";
import { PlainField } from "~/features/staff/components/plain-field";
import {
  cancelInvitation,
  changePassword,
  inviteStaff,
  removeStaff,
  signOutEverywhere,
  staffList,
} from "~/features/staff/members.server";
import { secureCookies } from "~/features/staff/sign-in.server";
import { clearedSessionCookie, requireStaffPage, sessionTokenFrom } from "~/features/staff/staff.server";
import { readFormBody } from "~/infra/http/api.server";
import { bodyLimits } from "~/infra/http/body-limits.server";
import { pageWork } from "~/infra/http/page.server";
import { AppError, type FieldErrors } from "~/lib/errors";
import { londonDate, londonTime } from "~/lib/london-time";

// /admin/staff: the members with their last sign-in and the open invitations; Add a member (a
// one-time link by e-mail), Remove (never the last), Cancel an invitation; and Your account:
// Change your password, Sign out of every device.
export const loader = pageWork("The staff page", async ({ request, context }: Route.LoaderArgs) => {
  const me = await requireStaffPage(context.services, request);
  return { me, ...(await staffList(context.services, context.services.clock.now())) };
});

type Intent = "invite" | "cancel-invitation" | "remove" | "change-password" | "sign-out-everywhere";

interface Answer {
  intent: Intent;
  message: string;
  ok: boolean;
  fields?: FieldErrors;
  /** What was typed in Email, kept when it is refused. */
  email?: string;
}

const answer = (value: Answer, status = 200) => data(value, { status });

export const action = pageWork("Changing the staff", async ({ request, context }: Route.ActionArgs) => {
  const { services } = context;
  const staff = await requireStaffPage(services, request);
  const form = await readFormBody(request, bodyLimits.staff);
  const field = (name: string) => String(form.get(name) ?? "").slice(0, 300);
  const intent = field("intent") as Intent;
  const now = services.clock.now();
  const signedOut = () =>
    redirect("/admin/sign-in", { headers: { "Set-Cookie": clearedSessionCookie(secureCookies(services.config)) } });
  try {
    switch (intent) {
      case "invite": {
        const invited = await inviteStaff(services, staff, { email: field("email") }, now);
        const sent = await services.outbox.deliver("staff-invitation", invited.id);
        const replaced = invited.replaced ? " The earlier link no longer works." : "";
        return answer({
          intent,
          ok: true,
          message:
            sent.ok === false
              ? `The invitation for ${invited.email} is ready, but its e-mail could not be sent yet; the site keeps trying (see E-mails).${replaced}`
              : `An invitation was sent to ${invited.email}. The link works for 72 hours.${replaced}`,
        });
      }
      case "cancel-invitation":
        return (await cancelInvitation(services, staff, field("id"), now))
          ? answer({ intent, ok: true, message: "The invitation is cancelled; its link no longer works." })
          : answer({ intent, ok: false, message: "That invitation was already used or cancelled." }, 404);
      case "remove": {
        const { removed, self } = await removeStaff(services, staff, field("id"), now);
        if (self) return signedOut();
        return removed
          ? answer({ intent, ok: true, message: "The member of staff is removed, and signed out everywhere." })
          : answer({ intent, ok: false, message: "That member of staff was already removed." }, 404);
      }
      case "change-password":
        await changePassword(
          services,
          staff,
          {
            currentPassword: field("currentPassword"),
            newPassword: field("newPassword"),
            repeatPassword: field("repeatPassword"),
          },
          { now, sessionToken: sessionTokenFrom(request) },
        );
        return answer({
          intent,
          ok: true,
          message: "Your password is changed. You are still signed in here; every other device is signed out.",
        });
      case "sign-out-everywhere":
        await signOutEverywhere(services, staff, now);
        return signedOut();
      default:
        return answer({ intent, ok: false, message: "Nothing was asked for." }, 400);
    }
  } catch (error) {
    if (error instanceof AppError && (error.code === "invalid" || error.code === "conflict")) {
      return answer(
        { intent, ok: false, message: error.message, fields: error.fields, email: field("email") },
        error.code === "invalid" ? 400 : 409,
      );
    }
    throw error;
  }
});

export const meta: Route.MetaFunction = () => adminMeta("Staff");

const when = (iso: string) => `${londonDate(iso)} ${londonTime(iso)}`;

export default function AdminStaff({ loaderData: { me, members, invitations }, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = (intent: Intent) => navigation.state !== "idle" && navigation.formData?.get("intent") === intent;
  const [removing, setRemoving] = useState<{ id: string; email: string }>();
  const [cancelling, setCancelling] = useState<{ id: string; email: string }>();
  const said = (intent: Intent) => (actionData?.intent === intent ? actionData : undefined);
  const notice = (intent: Intent) => {
    const answered = said(intent);
    if (!answered || answered.fields) return null;
    return (
      <p className={answered.ok ? "notice" : "form-summary"} role={answered.ok ? "status" : "alert"}>
        {answered.message}
      </p>
    );
  };
  const invite = said("invite");
  const password = said("change-password");
  return (
    <main id="main" className="page">
      <h1>Staff</h1>
      {notice("remove")}
      {notice("cancel-invitation")}
      <section className="section" aria-labelledby="members-heading">
        <h2 id="members-heading">Members</h2>
        <TableScroll label="Table of members of staff">
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">E-mail</th>
                <th scope="col">Added</th>
                <th scope="col">Last sign-in</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {members.map((member) => (
                <tr key={member.id}>
                  <th scope="row">
                    {member.email}
                    {member.id === me.id ? " (you)" : ""}
                  </th>
                  <td>{when(member.addedAt)}</td>
                  <td>{member.lastSignInAt ? when(member.lastSignInAt) : "Never"}</td>
                  <td>
                    <button
                      type="button"
                      className="button button-secondary"
                      aria-label={`Remove ${member.email}`}
                      aria-disabled={busy("remove")}
                      onClick={() => !busy("remove") && setRemoving(member)}
                    >
                      {busy("remove") && navigation.formData?.get("id") === member.id ? "Removing…" : "Remove"}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      </section>

      <section className="section" aria-labelledby="invitations-heading">
        <h2 id="invitations-heading">Invitations waiting</h2>
        {invitations.length === 0 ? (
          <p>No invitation is waiting to be used.</p>
        ) : (
          <TableScroll label="Table of invitations waiting">
            <table className="admin-table">
              <thead>
                <tr>
                  <th scope="col">E-mail</th>
                  <th scope="col">Invited by</th>
                  <th scope="col">Expires</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {invitations.map((invitation) => (
                  <tr key={invitation.id}>
                    <th scope="row">{invitation.email}</th>
                    <td>{invitation.invitedBy}</td>
                    <td>{when(invitation.expiresAt)}</td>
                    <td>
                      <button
                        type="button"
                        className="button button-secondary"
                        aria-label={`Cancel the invitation to ${invitation.email}`}
                        onClick={() => setCancelling(invitation)}
                      >
                        Cancel
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </section>

      <section className="section" aria-labelledby="add-heading">
        <h2 id="add-heading">Add a member</h2>
        <p>They get an e-mail with a link to choose their own password. The link works once, for 72 hours.</p>
        {/* A new form after each invitation sent, so Email starts empty again. */}
        <Form method="post" className="form narrow" key={invite?.ok ? invite.message : "invite"} noValidate>
          <input type="hidden" name="intent" value="invite" />
          {notice("invite")}
          <PlainField
            id="invite-email"
            label="Email"
            name="email"
            type="email"
            autoComplete="off"
            defaultValue={invite && !invite.ok ? invite.email : ""}
            error={invite?.fields?.email}
          />
          <button type="submit" className="button" aria-disabled={busy("invite")}>
            {busy("invite") ? "Sending the invitation…" : "Add a member"}
          </button>
        </Form>
      </section>

      <section className="section" aria-labelledby="account-heading">
        <h2 id="account-heading">Your account</h2>
        <h3>Change your password</h3>
        <Form method="post" className="form narrow" key={password?.ok ? "changed" : "change"} noValidate>
          <input type="hidden" name="intent" value="change-password" />
          {notice("change-password")}
          <PlainField
            id="current-password"
            label="Current password"
            name="currentPassword"
            type="password"
            autoComplete="current-password"
            error={password?.fields?.currentPassword}
          />
          <PlainField
            id="new-password"
            label="New password"
            name="newPassword"
            type="password"
            autoComplete="new-password"
            error={password?.fields?.newPassword}
          />
          <PlainField
            id="repeat-password"
            label="Repeat the password"
            name="repeatPassword"
            type="password"
            autoComplete="new-password"
            error={password?.fields?.repeatPassword}
          />
          <p className="field-hint">At least 12 characters.</p>
          <button type="submit" className="button" aria-disabled={busy("change-password")}>
            {busy("change-password") ? "Saving…" : "Change your password"}
          </button>
        </Form>
        <h3>Every device</h3>
        <p>Signs you out here and on every other phone or computer where you are signed in.</p>
        <Form method="post">
          <input type="hidden" name="intent" value="sign-out-everywhere" />
          <button type="submit" className="button button-secondary" aria-disabled={busy("sign-out-everywhere")}>
            {busy("sign-out-everywhere") ? "Signing out…" : "Sign out of every device"}
          </button>
        </Form>
      </section>

      <Form method="post" id="remove-member" hidden>
        <input type="hidden" name="intent" value="remove" />
        <input type="hidden" name="id" value={removing?.id ?? ""} />
      </Form>
      <ConfirmDialog
        open={Boolean(removing)}
        title="Remove this member of staff?"
        message={
          removing
            ? removing.id === me.id
              ? "Your own account will be removed, and you will be signed out."
              : `${removing.email} will no longer be able to sign in, and is signed out at once.`
            : ""
        }
        confirmLabel="Remove"
        cancelLabel="Keep them"
        onConfirm={() => {
          (document.getElementById("remove-member") as HTMLFormElement | null)?.requestSubmit();
          setRemoving(undefined);
        }}
        onCancel={() => setRemoving(undefined)}
      />
      <Form method="post" id="cancel-invitation" hidden>
        <input type="hidden" name="intent" value="cancel-invitation" />
        <input type="hidden" name="id" value={cancelling?.id ?? ""} />
      </Form>
      <ConfirmDialog
        open={Boolean(cancelling)}
        title="Cancel this invitation?"
        message={cancelling ? `The link sent to ${cancelling.email} will stop working.` : ""}
        confirmLabel="Cancel the invitation"
        cancelLabel="Keep it"
        onConfirm={() => {
          (document.getElementById("cancel-invitation") as HTMLFormElement | null)?.requestSubmit();
          setCancelling(undefined);
        }}
        onCancel={() => setCancelling(undefined)}
      />
    </main>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
