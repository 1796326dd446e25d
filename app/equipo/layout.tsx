import type { Metadata } from 'next';
import styles from '@/components/staff/staff.module.css';

// The staff's own root layout: none of the site's header, chat or third-party tags on a page of personal data.
export const metadata: Metadata = { title: 'Equipo', robots: { index: false, follow: false } };

export default function StaffLayout({ children }: Readonly<{ children: React.ReactNode }>) {
  return (
    <html lang="es-MX">
      <body className={styles.body}>
        <main className={styles.main}>{children}</main>
      </body>
    </html>
  );
}
