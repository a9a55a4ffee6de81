import { Form, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/admin.account";
import { ErrorPage } from "~/components/layout/error-page";
import { FormNotice } from "~/components/ui/form-notice";
import { adminMeta } from "~/features/staff/components/admin-shell";
import { NewPasswordFields, PasswordField } from "~/features/staff/components/password-field";
import { changePassword, signOutEverywhere } from "~/features/staff/members.server";
import { roleNames } from "~/features/staff/roles";
import { secureCookies } from "~/features/staff/sign-in.server";
import { clearedSessionCookie, requireStaffPage, sessionTokenFrom } from "~/features/staff/staff.server";
import { answerForm, formText, type FormHandler } from "~/infra/http/form-action.server";
import { pageWork } from "~/infra/http/page.server";

// /admin/account: the signed-in member's own account, whatever their role (docs/decisions/
// 071-staff-roles.md): their role and what it is for, Change your password, Sign out of every device.
export const loader = pageWork("Your account", async ({ request, context }: Route.LoaderArgs) => {
  const me = await requireStaffPage(context.services, request, "signed-in");
  return { email: me.email, role: roleNames[me.role] };
});

type Intent = "change-password" | "sign-out-everywhere";

export const action = pageWork("Changing your account", async ({ request, context }: Route.ActionArgs) => {
  const { services } = context;
  const staff = await requireStaffPage(services, request, "signed-in");
  const now = services.clock.now();
  return answerForm(request, {
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
      return redirect("/admin/sign-in", {
        headers: { "Set-Cookie": clearedSessionCookie(secureCookies(services.config)) },
      });
    },
  } satisfies Record<Intent, FormHandler>);
});

export const meta: Route.MetaFunction = () => adminMeta("Your account");

export default function YourAccount({ loaderData: { email, role }, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = (intent: Intent) => navigation.state !== "idle" && navigation.formData?.get("intent") === intent;
  const password = actionData?.intent === "change-password" ? actionData : undefined;
  return (
    <main id="main" className="page">
      <h1>Your account</h1>
      <p>
        You sign in as <strong>{email}</strong>. Your role is <strong>{role.name}</strong>:{" "}
        {role.summary.charAt(0).toLowerCase() + role.summary.slice(1)} Only an Owner can change a role.
      </p>
      <section className="section" aria-labelledby="password-heading">
        <h2 id="password-heading">Change your password</h2>
        <Form method="post" className="form narrow" key={password?.ok ? "changed" : "change"} noValidate>
          <input type="hidden" name="intent" value="change-password" />
          {password && !password.fields ? <FormNotice ok={password.ok}>{password.message}</FormNotice> : null}
          <input type="hidden" name="username" value={email} autoComplete="username" />
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
      </section>
      <section className="section" aria-labelledby="devices-heading">
        <h2 id="devices-heading">Every device</h2>
        <p>Signs you out here and on every other phone or computer where you are signed in.</p>
        <Form method="post">
          <input type="hidden" name="intent" value="sign-out-everywhere" />
          <button type="submit" className="button button-secondary" aria-disabled={busy("sign-out-everywhere")}>
            {busy("sign-out-everywhere") ? "Signing out…" : "Sign out of every device"}
          </button>
        </Form>
      </section>
    </main>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
