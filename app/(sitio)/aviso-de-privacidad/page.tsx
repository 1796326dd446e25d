import type { Metadata } from 'next';
import Link from 'next/link';
import { brand, contactDetails, privacyNotice } from '@/lib/content';
import styles from '@/components/layout/text-page.module.css';
import noticeStyles from './notice.module.css';

export const metadata: Metadata = {
  title: `${privacyNotice.title} | ${brand.name}`,
  alternates: { canonical: '/aviso-de-privacidad' },
};

export default function PrivacyNoticePage() {
  return (
    <article className={styles.notice}>
      <h1>{privacyNotice.title}</h1>
      <p>{privacyNotice.intro}</p>
      {privacyNotice.sections.map((section) => (
        <section key={section.heading}>
          <h2>{section.heading}</h2>
          {section.paragraphs.map((paragraph) => (
            <p key={paragraph}>{paragraph}</p>
          ))}
          {section.withCookies ? <CookieTable /> : null}
        </section>
      ))}
      {/* The layout's skip link points at #contacto on every page. */}
      <p id="contacto" tabIndex={-1}>
        {privacyNotice.questions}{' '}
        <a href={`mailto:${contactDetails.email}`}>{contactDetails.email}</a>
      </p>
      <p>
        <Link href="/">{privacyNotice.back}</Link>
      </p>
    </article>
  );
}

function CookieTable() {
  const columns = privacyNotice.cookiesColumns;
  return (
    // On a phone the table scrolls inside its box, not the page; a box that scrolls must take the keyboard's focus.
    <div
      className={noticeStyles.tableBox}
      role="region"
      aria-label={privacyNotice.cookiesCaption}
      tabIndex={0}
    >
      <table className={noticeStyles.table}>
        <caption>{privacyNotice.cookiesCaption}</caption>
        <thead>
          <tr>
            <th scope="col">{columns.name}</th>
            <th scope="col">{columns.owner}</th>
            <th scope="col">{columns.purpose}</th>
            <th scope="col">{columns.lasts}</th>
          </tr>
        </thead>
        <tbody>
          {privacyNotice.cookies.map((cookie) => (
            <tr key={cookie.name}>
              <th scope="row">
                <code>{cookie.name}</code>
              </th>
              <td>{cookie.owner}</td>
              <td>{cookie.purpose}</td>
              <td>{cookie.lasts}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
