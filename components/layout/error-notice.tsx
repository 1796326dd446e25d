import { agencyPhone, errorPage } from '@/lib/error-copy';
import styles from './error-notice.module.css';

/**
 * What app/error.tsx and app/global-error.tsx show: what happened, a retry,
 * and the ways to still reach the agency. The form link is a plain <a>: a
 * full page load, so a broken client state is left behind.
 */
export function ErrorNotice({ retry }: { retry: () => void }) {
  return (
    <section className={styles.notice} aria-labelledby="error-title">
      <h1 id="error-title" className={styles.title}>
        {errorPage.title}
      </h1>
      <p>{errorPage.text}</p>
      <p className={styles.actions}>
        {/* eslint-disable-next-line @next/next/no-html-link-for-pages -- a full load on purpose, see above */}
        <a className={styles.primary} href="/#contacto">
          {errorPage.toForm}
        </a>
        <button type="button" className={styles.secondary} onClick={retry}>
          {errorPage.retry}
        </button>
      </p>
      <p>
        {errorPage.call} <a href={`tel:${agencyPhone.e164}`}>{agencyPhone.display}</a>
      </p>
    </section>
  );
}
