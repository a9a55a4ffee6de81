import { useState } from "react";
import { Form, Link, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/admin.staff";
import { ErrorPage } from "~/components/layout/error-page";
import { ConfirmDialog } from "~/components/ui/confirm-dialog";
import { Field } from "~/components/ui/field";
import { FormNotice } from "~/components/ui/form-notice";
import { TableScroll } from "~/components/ui/table-scroll";
import { emailWentTo, mailMode } from "~/features/emails/mail-mode";
import { adminMeta } from "~/features/staff/components/admin-shell";
import {
  cancelInvitation,
  changeRole,
  defaultInvitedRole,
  inviteStaff,
  removeStaff,
  staffList,
} from "~/features/staff/members.server";
import { sendPasswordReset } from "~/features/staff/password-reset.server";
import { roleNames, staffRoles } from "~/features/staff/roles";
import { secureCookies } from "~/features/staff/sign-in.server";
import { clearedSessionCookie, requireStaffPage } from "~/features/staff/staff.server";
import { answerForm, formText, type FormHandler } from "~/infra/http/form-action.server";
import { pageWork } from "~/infra/http/page.server";
import { AppError } from "~/lib/errors";
import { londonStamp } from "~/lib/london-time";

// /admin/staff (Owners only): the members with their role and last sign-in, and the open
// invitations; Add a member with a role (a one-time link by e-mail), Change a member's role and
// Remove one (never the last Owner), Send a password reset link, Cancel an invitation. A member's
// own password and devices are on /admin/account, which every role may open.
export const loader = pageWork("The staff page", async ({ request, context }: Route.LoaderArgs) => {
  const me = await requireStaffPage(context.services, request, "site");
  const roles = staffRoles.map((role) => ({ role, ...roleNames[role] }));
  return {
    me,
    roles,
    defaultRole: defaultInvitedRole,
    ...(await staffList(context.services, context.services.clock.now())),
  };
});

type Intent = "invite" | "cancel-invitation" | "remove" | "change-role" | "send-reset";

export const action = pageWork("Changing the staff", async ({ request, context }: Route.ActionArgs) => {
  const { services } = context;
  const staff = await requireStaffPage(services, request, "site");
  const now = services.clock.now();
  const signedOut = () =>
    redirect("/admin/sign-in", { headers: { "Set-Cookie": clearedSessionCookie(secureCookies(services.config)) } });
  return answerForm(request, {
    invite: async (form) => {
      const invited = await inviteStaff(
        services,
        staff,
        { email: formText(form, "email", 300), role: formText(form, "role", 20) },
        now,
      );
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
    "change-role": async (form) => {
      const changed = await changeRole(
        services,
        staff,
        { id: formText(form, "id", 300), role: formText(form, "role", 20) },
        now,
      );
      if (!changed) throw new AppError("not-found", "That member of staff was already removed.");
      if (changed.from === changed.to) return { message: `${changed.email} is already ${roleNames[changed.to].name}.` };
      return {
        message: `${changed.email} is now ${roleNames[changed.to].name} (was ${roleNames[changed.from].name}). It applies from their next click.`,
      };
    },
    "send-reset": async (form) => {
      const member = (await staffList(services, now)).members.find((m) => m.id === formText(form, "id", 300));
      const reset = member && (await sendPasswordReset(services, member.email, staff, now));
      if (!reset) throw new AppError("not-found", "That member of staff was already removed.");
      const sent = await services.outbox.deliver("staff-password-reset", reset.id);
      return {
        message:
          sent.ok === false
            ? `The link for ${reset.email} is ready, but its e-mail could not be sent yet; the site keeps trying (see E-mails).`
            : `A link to choose a new password was sent to ${reset.email}. It works once, for 72 hours; their password stays as it is until they use it.`,
      };
    },
  } satisfies Record<Intent, FormHandler>);
});

export const meta: Route.MetaFunction = () => adminMeta("Staff");

const when = (iso: string) => londonStamp(iso);

export default function AdminStaff({
  loaderData: { me, roles, defaultRole, members, invitations },
  actionData,
}: Route.ComponentProps) {
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
  return (
    <main id="main" className="page staff-page">
      <h1>Staff</h1>
      {notice("remove")}
      {notice("cancel-invitation")}
      {notice("change-role")}
      {notice("send-reset")}
      <section className="section" aria-labelledby="members-heading">
        <h2 id="members-heading">Members</h2>
        <TableScroll label="Table of members of staff">
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">E-mail</th>
                <th scope="col">Role</th>
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
                  <td data-label="Role">
                    <Form method="post" className="staff-role-form">
                      <input type="hidden" name="intent" value="change-role" />
                      <input type="hidden" name="id" value={member.id} />
                      <Field
                        id={`role-${member.id}`}
                        label={<span className="visually-hidden">Role of {member.email}</span>}
                        select={{ name: "role", defaultValue: member.role }}
                      >
                        {roles.map((r) => (
                          <option key={r.role} value={r.role}>
                            {r.name}
                          </option>
                        ))}
                      </Field>
                      <button
                        type="submit"
                        className="button button-secondary"
                        aria-label={`Change the role of ${member.email}`}
                        aria-disabled={busy("change-role")}
                      >
                        Change role
                      </button>
                    </Form>
                  </td>
                  <td data-label="Added">{when(member.addedAt)}</td>
                  <td data-label="Last sign-in">{member.lastSignInAt ? when(member.lastSignInAt) : "Never"}</td>
                  <td data-label="Actions" className="staff-actions">
                    <Form method="post">
                      <input type="hidden" name="intent" value="send-reset" />
                      <input type="hidden" name="id" value={member.id} />
                      <button
                        type="submit"
                        className="button button-secondary"
                        aria-label={`Send a password reset link to ${member.email}`}
                        aria-disabled={busy("send-reset")}
                      >
                        Send a password reset link
                      </button>
                    </Form>
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
                  <th scope="col">Role</th>
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
                    <td data-label="Role">{roleNames[invitation.role].name}</td>
                    <td data-label="Invited by">{invitation.invitedBy}</td>
                    <td data-label="Expires">{when(invitation.expiresAt)}</td>
                    <td data-label="Actions">
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
          <Field
            id="invite-role"
            label="Role"
            hint="What they may do. You can change it later."
            select={{ name: "role", defaultValue: invite?.values?.role ?? defaultRole }}
            error={invite?.fields?.role}
          >
            {roles.map((r) => (
              <option key={r.role} value={r.role}>
                {r.name}: {r.summary}
              </option>
            ))}
          </Field>
          <button type="submit" className="button" aria-disabled={busy("invite")}>
            {busy("invite") ? "Sending the invitation…" : "Add a member"}
          </button>
        </Form>
      </section>

      <section className="section" aria-labelledby="account-heading">
        <h2 id="account-heading">Your account</h2>
        <p>
          To change your own password or sign out of every device, go to <Link to="/admin/account">Your account</Link>.
        </p>
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
