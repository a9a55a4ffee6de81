import { Form, data, useNavigation } from "react-router";
import type { Route } from "./+types/admin.settings";
import { ErrorPage } from "~/components/layout/error-page";
import { officeSettings, saveOfficeSettings } from "~/features/office/office.server";
import { officeModeLabels, officeModes } from "~/features/office/schema";
import { adminMeta } from "~/features/staff/components/admin-shell";
import { PlainField } from "~/features/staff/components/plain-field";
import { requireStaffPage } from "~/features/staff/staff.server";
import { requireSameOrigin } from "~/infra/http/api.server";
import { pageWork } from "~/infra/http/page.server";
import { AppError, type FieldErrors } from "~/lib/errors";

// /admin/settings: where the charity's office is told of bookings, donations and sign-ups (the
// office address, the charity's own by default) and how: each one, a summary a day, or none.
export const loader = pageWork("The settings page", async ({ request, context }: Route.LoaderArgs) => {
  await requireStaffPage(context.services, request);
  const [settings, { site }] = await Promise.all([
    officeSettings(context.services.db, context.services.clock.now()),
    context.services.content(),
  ]);
  return { address: settings.address ?? site.email, mode: settings.mode };
});

export const action = pageWork("Saving the settings", async ({ request, context }: Route.ActionArgs) => {
  requireSameOrigin(request, context.services.config.publicUrl);
  const { services } = context;
  const staff = await requireStaffPage(services, request);
  const form = await request.formData();
  const input = { address: String(form.get("address") ?? "").slice(0, 300), mode: String(form.get("mode") ?? "") };
  const { site } = await services.content();
  try {
    await saveOfficeSettings(services.db, staff, input, { now: services.clock.now(), charityEmail: site.email });
    void services.office.kick();
    return { ok: true, message: "The settings are saved.", fields: undefined as FieldErrors | undefined, input };
  } catch (error) {
    if (error instanceof AppError && error.code === "invalid") {
      return data({ ok: false, message: error.message, fields: error.fields, input }, { status: 400 });
    }
    throw error;
  }
});

export const meta: Route.MetaFunction = () => adminMeta("Settings");

export default function AdminSettings({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const refused = actionData && !actionData.ok ? actionData : undefined;
  const mode = refused?.input.mode ?? loaderData.mode;
  const modeError = refused?.fields?.mode;
  return (
    <main id="main" className="page narrow">
      <h1>Settings</h1>
      <section className="section" aria-labelledby="office-heading">
        <h2 id="office-heading">Telling the charity's office</h2>
        <p>
          The office can be sent an e-mail for each booking, donation and volunteer sign-up, or one summary each morning
          of the day before. They name the buyers, donors and volunteers, so send them only to the charity's own
          address.
        </p>
        <Form method="post" className="form" key={actionData?.ok ? "saved" : "settings"} noValidate>
          {actionData ? (
            <p className={actionData.ok ? "notice" : "form-summary"} role={actionData.ok ? "status" : "alert"}>
              {actionData.message}
            </p>
          ) : null}
          <PlainField
            id="office-address"
            label="Office e-mail address"
            name="address"
            type="email"
            autoComplete="off"
            defaultValue={refused?.input.address ?? loaderData.address}
            error={refused?.fields?.address}
          />
          <fieldset
            className="radio-group"
            aria-invalid={modeError ? true : undefined}
            aria-describedby={modeError ? "office-mode-error" : undefined}
          >
            <legend>Office e-mails</legend>
            {officeModes.map((value) => (
              <div className="radio-field" key={value}>
                <input
                  type="radio"
                  id={`office-mode-${value}`}
                  name="mode"
                  value={value}
                  defaultChecked={mode === value}
                />
                <label htmlFor={`office-mode-${value}`}>{officeModeLabels[value]}</label>
              </div>
            ))}
            {modeError ? (
              <p id="office-mode-error" className="field-error">
                {modeError}
              </p>
            ) : null}
          </fieldset>
          <button type="submit" className="button" aria-disabled={busy}>
            {busy ? "Saving…" : "Save the settings"}
          </button>
        </Form>
      </section>
    </main>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
