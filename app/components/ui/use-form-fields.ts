import { useEffect, useRef, useState } from "react";

/**
 * A form's values and its field errors, as the booking and donation forms use them: editing a
 * field clears its error, and whenever the set of failing fields changes the form's heading is
 * brought into view (instantly when reduced motion is asked for).
 */
export function useFormFields<V extends Record<string, unknown>, F extends string = Extract<keyof V, string>>(
  initial: V,
) {
  const [values, setValues] = useState<V>(initial);
  // Errors may name more than the fields typed here (the donation's amount comes from the URL).
  const [errors, setErrors] = useState<Partial<Record<F, string>>>({});
  const headingRef = useRef<HTMLHeadingElement>(null);
  const failing = Object.entries(errors)
    .filter(([, message]) => message)
    .map(([field]) => field)
    .join(",");

  useEffect(() => {
    if (failing) {
      const reduce = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
      headingRef.current?.scrollIntoView({ behavior: reduce ? "auto" : "smooth", block: "start" });
    }
  }, [failing]);

  function change<K extends keyof V & F>(field: K, value: V[K]) {
    setValues((current) => ({ ...current, [field]: value }));
    if (errors[field]) setErrors((current) => ({ ...current, [field]: undefined }));
  }

  return { values, change, errors, setErrors, hasErrors: failing !== "", headingRef };
}
