import { contactDetails } from '@/lib/content';
import styles from './contact-form-slot.module.css';

/**
 * Reserves the contact form's place in the hero (its height included, so the
 * page does not shift when the form arrives). The form itself is a later piece
 * of work; until then the visitor is pointed to the e-mail and phone.
 */
export function ContactFormSlot() {
  return (
    <div className={styles.slot}>
      <p>
        Escríbenos a <a href={`mailto:${contactDetails.email}`}>{contactDetails.email}</a> o llámanos al{' '}
        <a href={`tel:${contactDetails.phoneE164}`}>{contactDetails.phoneDisplay}</a>: un asesor te atenderá muy pronto.
      </p>
    </div>
  );
}
