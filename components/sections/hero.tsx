import { ContactForm } from '@/components/contact/contact-form';
import { Honeypot } from '@/components/contact/honeypot';
import { PrivacyNote } from '@/components/contact/privacy-note';
import { Icon } from '@/components/icon';
import type { ContactState } from '@/lib/contact/state';
import { contactDetails, formattedAddress, hero } from '@/lib/content';
import { formEdition, publicEnv } from '@/lib/env/public';
import styles from './hero.module.css';

/** `contactState`: the form's state before any send (the retry page gives a stale form's values back). */
export function Hero({ contactState }: { contactState?: ContactState }) {
  return (
    <section className={styles.hero} aria-labelledby="hero-title">
      <div className={styles.inner}>
        <div className={styles.copy}>
          <p className={styles.eyebrow}>{hero.eyebrow}</p>
          <h1 id="hero-title" className={styles.title}>
            {hero.headline}
          </h1>
          <p className={styles.lead}>{hero.lead}</p>
          <h2 className="visually-hidden">{hero.contactHeading}</h2>
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
          <h2 className={styles.formTitle}>{hero.formHeading}</h2>
          <ContactForm
            initialState={contactState}
            submitIcon={<Icon name="paper-plane" />}
            honeypot={<Honeypot />}
            recaptchaSiteKey={publicEnv.recaptchaSiteKey}
            thankYouUrl={publicEnv.thankYouUrl}
            edition={formEdition}
            whatsappUrl={publicEnv.whatsappUrl}
          />
          <PrivacyNote privacyNoticeUrl={publicEnv.privacyNoticeUrl} />
        </div>
      </div>
    </section>
  );
}
