import { startTransition, useCallback, useState } from 'react';
import type { ContactField } from '@/lib/contact/fields';
import { retryableImport } from '@/lib/browser/retryable-import';

/** One field's first message, or undefined when its value is valid. */
export type Validate = (field: ContactField, value: string) => string | undefined;

/**
 * The rules (lib/contact/rules.ts: the schema's rules, in plain code) arrive
 * only once the visitor starts on the form: they are not part of the first
 * visit's JavaScript. A failed download is forgotten, so the next focus or
 * submit asks again; the form never waits on it (the server validates anyway).
 */
const loadRules = retryableImport(() =>
  import('@/lib/contact/rules').then((rules): Validate => rules.validateField),
);

/**
 * The rules once they have arrived (null before), and `request`, which resolves to them or to null when the chunk
 * failed.
 */
export function useContactRules(): {
  validate: Validate | null;
  request: () => Promise<Validate | null>;
} {
  const [validate, setValidate] = useState<Validate | null>(null);
  const request = useCallback(
    () =>
      loadRules().then(
        (loaded) => {
          // A render that yields: it lands while the visitor types, and a keystroke never waits for it.
          startTransition(() => setValidate(() => loaded));
          return loaded;
        },
        () => null,
      ),
    [],
  );
  return { validate, request };
}
