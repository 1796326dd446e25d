import { FaEnvelopeOpen, FaMapMarkerAlt, FaPaperPlane, FaPhone } from 'react-icons/fa';
import { ContactForm } from '@/components/contact/contact-form';
import { contactDetails, formattedAddress, hero } from '@/lib/content';
import { publicEnv } from '@/lib/env/public';
import styles from './hero.module.css';

export function Hero() {
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
              <FaEnvelopeOpen className={styles.icon} aria-hidden="true" focusable="false" />
              <a href={`mailto:${contactDetails.email}`}>{contactDetails.email}</a>
            </li>
            <li>
              <FaPhone className={styles.icon} aria-hidden="true" focusable="false" />
              <a href={`tel:${contactDetails.phoneE164}`}>{contactDetails.phoneDisplay}</a>
            </li>
            <li>
              <FaMapMarkerAlt className={styles.icon} aria-hidden="true" focusable="false" />
              <address>{formattedAddress}</address>
            </li>
          </ul>
        </div>
        <div id="contacto" className={styles.formCard} tabIndex={-1}>
          <h2 className={styles.formTitle}>{hero.formHeading}</h2>
          <ContactForm
            submitIcon={<FaPaperPlane aria-hidden="true" focusable="false" />}
            recaptchaSiteKey={publicEnv.recaptchaSiteKey}
            thankYouUrl={publicEnv.thankYouUrl}
            whatsappUrl={publicEnv.whatsappUrl}
          />
        </div>
      </div>
    </section>
  );
}
