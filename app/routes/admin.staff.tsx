import { useState } from "react";
import { Form, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/admin.staff";
import { ErrorPage } from "~/components/layout/error-page";
import { ConfirmDialog } from "~/components/ui/confirm-dialog";
import { Field } from "~/components/ui/field";
import { FormNotice } from "~/components/ui/form-notice";
import { TableScroll } from "~/components/ui/table-scroll";
import { emailWentTo, mailMode } from "~/features/emails/mail-mode";
import { adminMeta } from "~/features/staff/components/admin-shell";
import { NewPasswordFields, PasswordField } from "~/features/staff/components/password-field";
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
import { answerForm, formText, type FormHandler } from "~/infra/http/form-action.server";
import { pageWork } from "~/infra/http/page.server";
import { AppError } from "~/lib/errors";
import { londonDate, londonTime } from "~/lib/london-time";

// /admin/staff: the members with their last sign-in and the open invitations; Add a member (a
// one-time link by e-mail), Remove (never the last), Cancel an invitation; and Your account:
// Change your password, Sign out of every device.
export const loader = pageWork("The staff page", async ({ request, context }: Route.LoaderArgs) => {
  const me = await requireStaffPage(context.services, request);
  return { me, ...(await staffList(context.services, context.services.clock.now())) };
});

type Intent = "invite" | "cancel-invitation" | "remove" | "change-password" | "sign-out-everywhere";

export const action = pageWork("Changing the staff", async ({ request, context }: Route.ActionArgs) => {
  const { services } = context;
  const staff = await requireStaffPage(services, request);
  const now = services.clock.now();
  const signedOut = () =>
    redirect("/admin/sign-in", { headers: { "Set-Cookie": clearedSessionCookie(secureCookies(services.config)) } });
  return answerForm(request, {
    invite: async (form) => {
      const invited = await inviteStaff(services, staff, { email: formText(form, "email", 300) }, now);
      const sent = await services.outbox.deliver("staff-invitation", invited.id);
      const replaced = invited.replaced ? " The earlier link no longer works." : "";
      return {
        message:
          sent.ok === false
            ? `The invitation for ${invited.email} is ready, but its e-mail could not be sent yet; the site keeps trying (see E-mails).${replaced}`
            : `${emailWentTo(mailMode(services), "An invitation", invited.email)} The link works for 72 hours.${replaced}`,
      };
    },
    "cancel-invitation": async (form) => {
      if (!(await cancelInvitation(services, staff, formText(form, "id", 300), now))) {
        throw new AppError("not-found", "That invitation was already used or cancelled.");
      }
      return { message: "The invitation is cancelled; its link no longer works." };
    },
    remove: async (form) => {
      const { removed, self } = await removeStaff(services, staff, formText(form, "id", 300), now);
      if (self) return signedOut();
      if (!removed) throw new AppError("not-found", "That member of staff was already removed.");
      return { message: "The member of staff is removed, and signed out everywhere." };
    },
    "change-password": async (form) => {
      await changePassword(
        services,
        staff,
        {
          currentPassword: formText(form, "currentPassword", 300),
          newPassword: formText(form, "newPassword", 300),
          repeatPassword: formText(form, "repeatPassword", 300),
        },
        { now, sessionToken: sessionTokenFrom(request) },
      );
      return { message: "Your password is changed. You are still signed in here; every other device is signed out." };
    },
    "sign-out-everywhere": async () => {
      await signOutEverywhere(services, staff, now);
      return signedOut();
    },
  } satisfies Record<Intent, FormHandler>);
});

export const meta: Route.MetaFunction = () => adminMeta("Staff");

const when = (iso: string) => `${londonDate(iso)} ${londonTime(iso)}`;

export default function AdminStaff({ loaderData: { me, members, invitations }, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = (intent: Intent) => navigation.state !== "idle" && navigation.formData?.get("intent") === intent;
  const [removing, setRemoving] = useState<{ id: string; email: string }>();
  const [cancelling, setCancelling] = useState<{ id: string; email: string }>();
  const said = (intent: Intent) => (actionData?.intent === intent ? actionData : undefined);
  /** What was done, or why not; a refusal that names its fields says so beside them instead. */
  const notice = (intent: Intent) => {
    const answered = said(intent);
    if (!answered || answered.fields) return null;
    return <FormNotice ok={answered.ok}>{answered.message}</FormNotice>;
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
          <Field
            id="invite-email"
            label="Email"
            input={{
              name: "email",
              type: "email",
              autoComplete: "off",
              maxLength: 200,
              required: true,
              defaultValue: invite?.values?.email ?? "",
            }}
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
          <PasswordField
            id="current-password"
            label="Current password"
            name="currentPassword"
            error={password?.fields?.currentPassword}
          />
          <NewPasswordFields idPrefix="" fields={password?.fields} />
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
