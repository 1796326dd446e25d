import type { Metadata } from 'next';
import Link from 'next/link';
import { brand, contactDetails, privacyNotice } from '@/lib/content';
import styles from '@/components/layout/text-page.module.css';

export const metadata: Metadata = {
  title: `${privacyNotice.title} | ${brand.name}`,
  alternates: { canonical: '/aviso-de-privacidad' },
};

export default function PrivacyNoticePage() {
  return (
    <article className={styles.notice}>
      <h1>{privacyNotice.title}</h1>
      {privacyNotice.paragraphs.map((paragraph) => (
        <p key={paragraph}>{paragraph}</p>
      ))}
      {/* The layout's skip link points at #contacto on every page. */}
      <p id="contacto" tabIndex={-1}>
        {privacyNotice.questions} <a href={`mailto:${contactDetails.email}`}>{contactDetails.email}</a>
      </p>
      <p>
        <Link href="/">{privacyNotice.back}</Link>
      </p>
    </article>
  );
}
