import { privacyShortNotice } from '@/lib/content';
import styles from './contact-form.module.css';

/**
 * The short privacy notice under the form: who is responsible for the data and
 * why, and the full notice. Server-rendered, no JavaScript; it opens the
 * notice in a new tab, so what was typed stays.
 */
export function PrivacyNote({ privacyNoticeUrl }: { privacyNoticeUrl: string }) {
  return (
    <p className={styles.privacyNote}>
      {privacyShortNotice.text}{' '}
      <a href={privacyNoticeUrl} target="_blank" rel="noopener noreferrer">
        {privacyShortNotice.link}
      </a>
    </p>
  );
}
