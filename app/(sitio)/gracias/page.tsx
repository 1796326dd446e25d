import type { Metadata } from 'next';
import Link from 'next/link';
import { brand, contactForm, privacyNotice } from '@/lib/content';
import styles from '@/components/layout/text-page.module.css';

// The default thank-you page (NEXT_PUBLIC_THANK_YOU_URL): where ads conversions are counted.
export const metadata: Metadata = {
  title: `${contactForm.thanksTitle} | ${brand.name}`,
  robots: { index: false },
};

export default function ThankYouPage() {
  return (
    <article className={styles.notice}>
      <h1>{contactForm.thanksTitle}</h1>
      <p id="contacto" tabIndex={-1}>
        {contactForm.thanksText}
      </p>
      <p>
        <Link href="/">{privacyNotice.back}</Link>
      </p>
    </article>
  );
}
