// The office e-mails' choices, for the settings page and the sweep alike.

export const officeModes = ["each", "daily", "none"] as const;
export type OfficeMode = (typeof officeModes)[number];

export const officeModeLabels: Record<OfficeMode, string> = {
  each: "One for each booking, donation and sign-up",
  daily: "One summary a day",
  none: "None",
};
