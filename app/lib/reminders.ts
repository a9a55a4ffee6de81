// How staff choose and read an event's reminder time (docs/decisions/096-event-reminders.md).

/** A new event's reminder: two days before it (decision 096). */
export const defaultReminderHours = 48;

/** The reminder times the form offers, in hours before the event; the staff API takes any from 1 to 336. */
export const reminderChoices: { hours: number; label: string }[] = [
  { hours: 3, label: "3 hours before" },
  { hours: 6, label: "6 hours before" },
  { hours: 12, label: "12 hours before" },
  { hours: 24, label: "1 day before" },
  { hours: 48, label: "2 days before" },
  { hours: 72, label: "3 days before" },
  { hours: 168, label: "1 week before" },
];

/** "2 days before", "30 hours before": how staff read a reminder time. */
export function reminderLabel(hours: number): string {
  return reminderChoices.find((choice) => choice.hours === hours)?.label ?? `${hours} hours before`;
}
