import { useEffect, type RefObject } from "react";

/**
 * What a visitor typed, ticked or had filled in by the browser before the page's scripts ran
 * (decision 045). The server sends working fields, and the scripts come after the content: React
 * hydrates a controlled field without touching what is in it, but its state still holds the
 * server's value, so the next render would empty the field and the form would check the empty
 * value. Once, when the field first mounts, the state is brought up to the field; after that its
 * change events carry every edit. On a field mounted later (a client-side navigation, a part of
 * the form that opens) the two are already the same and nothing happens.
 */
export function useEarlyValue(
  ref: RefObject<HTMLInputElement | HTMLTextAreaElement | null>,
  value: string,
  onChange: (value: string) => void,
) {
  useEffect(() => {
    const field = ref.current;
    if (field && field.value !== value) onChange(field.value);
    // Only the first render's values: this reads what happened before the scripts ran.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
}

/** The same for a checkbox or a radio button: its `checked` as the visitor left it. */
export function useEarlyChecked(
  ref: RefObject<HTMLInputElement | null>,
  checked: boolean,
  onChange: (checked: boolean) => void,
) {
  useEffect(() => {
    const field = ref.current;
    if (field && field.checked !== checked) onChange(field.checked);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
}
