import { Form, data, useNavigation } from "react-router";
import type { Route } from "./+types/admin.settings";
import { ErrorPage } from "~/components/layout/error-page";
import { holdLimits, saveHoldLimits } from "~/features/booking/hold-limits.server";
import { donateButtonSettings, saveDonateButton } from "~/features/donations/donate-button.server";
import { externalDonationPageMaxLength } from "~/features/donations/schema";
import { officeSettings, saveOfficeSettings } from "~/features/office/office.server";
import { officeModeLabels, officeModes } from "~/features/office/schema";
import { adminMeta } from "~/features/staff/components/admin-shell";
import { PlainField } from "~/features/staff/components/plain-field";
import { requireStaffPage } from "~/features/staff/staff.server";
import { readFormBody } from "~/infra/http/api.server";
import { bodyLimits } from "~/infra/http/body-limits.server";
import { pageWork } from "~/infra/http/page.server";
import { AppError, type FieldErrors } from "~/lib/errors";

// /admin/settings: where the charity's office is told of bookings, donations and sign-ups (the
// office address, the charity's own by default) and how: each one, a summary a day, or none; and
// where the navigation bar's Donate button goes (this site's own page, or an external one). Each
// section is its own form, saved on its own.
export const loader = pageWork("The settings page", async ({ request, context }: Route.LoaderArgs) => {
  await requireStaffPage(context.services, request);
  const [settings, donate, limits, { site }] = await Promise.all([
    officeSettings(context.services, context.services.clock.now()),
    donateButtonSettings(context.services),
    holdLimits(context.services),
    context.services.content(),
  ]);
  return {
    address: settings.address ?? site.email,
    mode: settings.mode,
    externalUrl: donate.externalUrl ?? "",
    perEmail: String(limits.perEmail),
    perAddress: String(limits.perAddress),
  };
});

export const action = pageWork("Saving the settings", async ({ request, context }: Route.ActionArgs) => {
  const { services } = context;
  const staff = await requireStaffPage(services, request);
  const form = await readFormBody(request, bodyLimits.staff);
  const now = services.clock.now();
  const refused = (error: unknown, section: Section, input: Record<string, string>) => {
    if (error instanceof AppError && error.code === "invalid") {
      return data({ ok: false, section, message: error.message, fields: error.fields, input }, { status: 400 });
    }
    throw error;
  };
  if (form.get("section") === "donate") {
    const input = { externalUrl: String(form.get("externalUrl") ?? "").slice(0, externalDonationPageMaxLength + 100) };
    try {
      await saveDonateButton(services, staff, input, { now });
      return saved("donate", "The Donate button is saved.", input);
    } catch (error) {
      return refused(error, "donate", input);
    }
  }
  if (form.get("section") === "holds") {
    const input = {
      perEmail: String(form.get("perEmail") ?? "").slice(0, 20),
      perAddress: String(form.get("perAddress") ?? "").slice(0, 20),
    };
    try {
      await saveHoldLimits(services, staff, input, { now });
      return saved("holds", "The seat limits are saved.", input);
    } catch (error) {
      return refused(error, "holds", input);
    }
  }
  const input = { address: String(form.get("address") ?? "").slice(0, 300), mode: String(form.get("mode") ?? "") };
  const { site } = await services.content();
  try {
    await saveOfficeSettings(services, staff, input, { now, charityEmail: site.email });
    void services.office.kick();
    return saved("office", "The settings are saved.", input);
  } catch (error) {
    return refused(error, "office", input);
  }
});

type Section = "office" | "donate" | "holds";

function saved(section: Section, message: string, input: Record<string, string>) {
  return { ok: true, section, message, fields: undefined as FieldErrors | undefined, input };
}

export const meta: Route.MetaFunction = () => adminMeta("Settings");

export default function AdminSettings({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const answer = (section: Section) => (actionData?.section === section ? actionData : undefined);
  const office = answer("office");
  const donate = answer("donate");
  const refused = office && !office.ok ? office : undefined;
  const refusedDonate = donate && !donate.ok ? donate : undefined;
  const holds = answer("holds");
  const refusedHolds = holds && !holds.ok ? holds : undefined;
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
        <Form method="post" className="form" key={office?.ok ? "saved" : "settings"} noValidate>
          <input type="hidden" name="section" value="office" />
          {office ? (
            <p className={office.ok ? "notice" : "form-summary"} role={office.ok ? "status" : "alert"}>
              {office.message}
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
      <section className="section" aria-labelledby="donate-heading">
        <h2 id="donate-heading">The Donate button</h2>
        <p>
          The Donate button at the top of every page goes to this site's own donation page, where donors give by card
          and add Gift Aid. If the charity takes donations on another site instead, give its address here: the button
          will open it in a new tab. Leave it empty to use this site's own page.
        </p>
        <Form method="post" className="form" key={donate?.ok ? "donate-saved" : "donate"} noValidate>
          <input type="hidden" name="section" value="donate" />
          {donate ? (
            <p className={donate.ok ? "notice" : "form-summary"} role={donate.ok ? "status" : "alert"}>
              {donate.message}
            </p>
          ) : null}
          <PlainField
            id="external-donation-page"
            label="External donation page"
            name="externalUrl"
            type="url"
            autoComplete="off"
            required={false}
            hint="Optional. A full address starting with https://"
            maxLength={externalDonationPageMaxLength}
            defaultValue={refusedDonate?.input.externalUrl ?? loaderData.externalUrl}
            error={refusedDonate?.fields?.externalUrl}
          />
          <button type="submit" className="button" aria-disabled={busy}>
            {busy ? "Saving…" : "Save the Donate button"}
          </button>
        </Form>
      </section>
      <section className="section" aria-labelledby="holds-heading">
        <h2 id="holds-heading">Seats held while paying</h2>
        <p>
          Seats are held for a buyer while they pay, for up to 15 minutes. So that nobody can hold a whole event without
          paying, one visitor can hold only so many seats at once, across all events. Seats already paid for do not
          count. A school or a mobile network may put many buyers behind one internet connection, so keep the limit for
          a connection well above the one for an e-mail address.
        </p>
        <Form method="post" className="form" key={holds?.ok ? "holds-saved" : "holds"} noValidate>
          <input type="hidden" name="section" value="holds" />
          {holds ? (
            <p className={holds.ok ? "notice" : "form-summary"} role={holds.ok ? "status" : "alert"}>
              {holds.message}
            </p>
          ) : null}
          <PlainField
            id="holds-per-email"
            label="Seats one e-mail address may hold at once"
            name="perEmail"
            type="text"
            maxLength={4}
            autoComplete="off"
            hint="A number from 1 to 1000. One booking can have up to 29 tickets."
            defaultValue={refusedHolds?.input.perEmail ?? loaderData.perEmail}
            error={refusedHolds?.fields?.perEmail}
          />
          <PlainField
            id="holds-per-address"
            label="Seats one internet connection may hold at once"
            name="perAddress"
            type="text"
            maxLength={4}
            autoComplete="off"
            hint="A number from 1 to 1000."
            defaultValue={refusedHolds?.input.perAddress ?? loaderData.perAddress}
            error={refusedHolds?.fields?.perAddress}
          />
          <button type="submit" className="button" aria-disabled={busy}>
            {busy ? "Saving…" : "Save the seat limits"}
          </button>
        </Form>
      </section>
    </main>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
