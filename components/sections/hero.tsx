import { ContactForm } from '@/components/contact/contact-form';
import { Honeypot } from '@/components/contact/honeypot';
import { PrivacyNote } from '@/components/contact/privacy-note';
import { Icon } from '@/components/icon';
import type { ContactState } from '@/lib/contact/state';
import { contactDetails, formattedAddress, hero } from '@/lib/content';
import { formEdition, publicEnv } from '@/lib/env/public';
import type { LeadExperiment } from '@/lib/experiments/lead-experiment';
import styles from './hero.module.css';

type Props = {
  /** The form's state before any send (the retry page gives a stale form's values back). */
  contactState?: ContactState;
  /** Its words: lib/content.ts's, or an experiment's variant's (lib/experiments/page-copy.ts). */
  copy?: typeof hero;
  /** A variant's send button, and the variants the form posts with a lead; the control passes neither. */
  variant?: { submit: string; experiments: LeadExperiment[] };
};

export function Hero({ contactState, copy = hero, variant }: Props) {
  return (
    <section className={styles.hero} aria-labelledby="hero-title">
      <div className={styles.inner}>
        <div className={styles.copy}>
          <p className={styles.eyebrow}>{copy.eyebrow}</p>
          <h1 id="hero-title" className={styles.title}>
            {copy.headline}
          </h1>
          <p className={styles.lead}>{copy.lead}</p>
          <h2 className="visually-hidden">{copy.contactHeading}</h2>
          <ul className={styles.contact}>
            <li>
              <Icon name="envelope-open" className={styles.icon} />
              <a href={`mailto:${contactDetails.email}`}>{contactDetails.email}</a>
            </li>
            <li>
              <Icon name="phone" className={styles.icon} />
              <a href={`tel:${contactDetails.phoneE164}`}>{contactDetails.phoneDisplay}</a>
            </li>
            <li>
              <Icon name="map-marker-alt" className={styles.icon} />
              <address>{formattedAddress}</address>
            </li>
          </ul>
        </div>
        <div id="contacto" className={styles.formCard} tabIndex={-1}>
          <h2 className={styles.formTitle}>{copy.formHeading}</h2>
          <ContactForm
            initialState={contactState}
            submitIcon={<Icon name="paper-plane" />}
            honeypot={<Honeypot />}
            recaptchaSiteKey={publicEnv.recaptchaSiteKey}
            thankYouUrl={publicEnv.thankYouUrl}
            edition={formEdition}
            whatsappUrl={publicEnv.whatsappUrl}
            {...variant}
          />
          <PrivacyNote privacyNoticeUrl={publicEnv.privacyNoticeUrl} />
        </div>
      </div>
    </section>
  );
}
