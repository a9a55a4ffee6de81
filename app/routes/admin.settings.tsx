import { Form, useNavigation } from "react-router";
import type { Route } from "./+types/admin.settings";
import { ErrorPage } from "~/components/layout/error-page";
import { Field, FieldGroup } from "~/components/ui/field";
import { FormNotice } from "~/components/ui/form-notice";
import { holdLimits, saveHoldLimits } from "~/features/booking/hold-limits.server";
import { donateButtonSettings, saveDonateButton } from "~/features/donations/donate-button.server";
import { externalDonationPageMaxLength } from "~/features/donations/schema";
import { officeSettings, saveOfficeSettings } from "~/features/office/office.server";
import { officeModeLabels, officeModes } from "~/features/office/schema";
import { adminMeta } from "~/features/staff/components/admin-shell";
import { requireStaffPage } from "~/features/staff/staff.server";
import { answerForm, formText, type FormHandler } from "~/infra/http/form-action.server";
import { pageWork } from "~/infra/http/page.server";

// /admin/settings: where the charity's office is told of bookings, donations and sign-ups (the
// office address, the charity's own by default) and how: each one, a summary a day, or none; and
// where the navigation bar's Donate button goes (this site's own page, or an external one). Each
// section is its own form, saved on its own.
export const loader = pageWork("The settings page", async ({ request, context }: Route.LoaderArgs) => {
  await requireStaffPage(context.services, request, "site");
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

type Section = "office" | "donate" | "holds";

export const action = pageWork("Saving the settings", async ({ request, context }: Route.ActionArgs) => {
  const { services } = context;
  const staff = await requireStaffPage(services, request, "site");
  const now = services.clock.now();
  return answerForm(request, {
    office: async (form) => {
      const { site } = await services.content();
      const input = { address: formText(form, "address", 300), mode: formText(form, "mode", 100) };
      await saveOfficeSettings(services, staff, input, { now, charityEmail: site.email });
      void services.office.kick();
      return { message: "The settings are saved." };
    },
    donate: async (form) => {
      const input = { externalUrl: formText(form, "externalUrl", externalDonationPageMaxLength + 100) };
      await saveDonateButton(services, staff, input, { now });
      return { message: "The Donate button is saved." };
    },
    holds: async (form) => {
      const input = { perEmail: formText(form, "perEmail", 20), perAddress: formText(form, "perAddress", 20) };
      await saveHoldLimits(services, staff, input, { now });
      return { message: "The seat limits are saved." };
    },
  } satisfies Record<Section, FormHandler>);
});

export const meta: Route.MetaFunction = () => adminMeta("Settings");

export default function AdminSettings({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const answer = (section: Section) => (actionData?.intent === section ? actionData : undefined);
  const office = answer("office");
  const donate = answer("donate");
  const holds = answer("holds");
  /** What a refused section's form had typed, to show again. */
  const typed = (section: typeof office) => (section && !section.ok ? section.values : undefined);
  const mode = typed(office)?.mode ?? loaderData.mode;
  const modeError = office?.fields?.mode;
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
          <input type="hidden" name="intent" value="office" />
          {office ? <FormNotice ok={office.ok}>{office.message}</FormNotice> : null}
          <Field
            id="office-address"
            label="Office e-mail address"
            input={{
              name: "address",
              type: "email",
              autoComplete: "off",
              maxLength: 200,
              required: true,
              defaultValue: typed(office)?.address ?? loaderData.address,
            }}
            error={office?.fields?.address}
          />
          <FieldGroup id="office-mode" className="radio-group" legend="Office e-mails" error={modeError}>
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
          </FieldGroup>
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
          <input type="hidden" name="intent" value="donate" />
          {donate ? <FormNotice ok={donate.ok}>{donate.message}</FormNotice> : null}
          <Field
            id="external-donation-page"
            label="External donation page"
            hint="Optional. A full address starting with https://"
            input={{
              name: "externalUrl",
              type: "url",
              autoComplete: "off",
              maxLength: externalDonationPageMaxLength,
              defaultValue: typed(donate)?.externalUrl ?? loaderData.externalUrl,
            }}
            error={donate?.fields?.externalUrl}
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
          <input type="hidden" name="intent" value="holds" />
          {holds ? <FormNotice ok={holds.ok}>{holds.message}</FormNotice> : null}
          <Field
            id="holds-per-email"
            label="Seats one e-mail address may hold at once"
            hint="A number from 1 to 1000. A visitor holding nothing may always hold one booking of up to this many tickets (one booking can have up to 29); beside other holds, a table of eight counts as eight seats."
            input={{
              name: "perEmail",
              type: "text",
              maxLength: 4,
              autoComplete: "off",
              required: true,
              defaultValue: typed(holds)?.perEmail ?? loaderData.perEmail,
            }}
            error={holds?.fields?.perEmail}
          />
          <Field
            id="holds-per-address"
            label="Seats one internet connection may hold at once"
            hint="A number from 1 to 1000."
            input={{
              name: "perAddress",
              type: "text",
              maxLength: 4,
              autoComplete: "off",
              required: true,
              defaultValue: typed(holds)?.perAddress ?? loaderData.perAddress,
            }}
            error={holds?.fields?.perAddress}
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
