import { HONEYPOT_FIELD } from '@/lib/contact/fields';

/**
 * The spam filter's honeypot (lib/contact/actions.ts): a text box no person
 * sees, reaches with the keyboard or hears, and that no autofill or password
 * manager fills (its name and autocomplete match none of their heuristics,
 * and the data attributes opt out of 1Password, LastPass, Bitwarden and
 * Dashlane). Only a program that fills every control writes in it. Rendered
 * on the server and handed to the form island: no browser downloads its markup.
 */
export function Honeypot() {
  return (
    <div className="visually-hidden" aria-hidden="true">
      <label htmlFor="contacto-extra">Deja este campo vacío</label>
      <input
        id="contacto-extra"
        type="text"
        name={HONEYPOT_FIELD}
        tabIndex={-1}
        autoComplete="off"
        defaultValue=""
        data-1p-ignore=""
        data-lpignore="true"
        data-bwignore=""
        data-form-type="other"
      />
    </div>
  );
}
