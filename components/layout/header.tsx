import { Picture, type Slot } from '@/components/picture';
import { brand } from '@/lib/content';
import { HeaderScrollWatcher } from './header-scroll-watcher';
import styles from './header.module.css';

const HEADER_ID = 'site-header';

// Both fit the 100px header (75px once shrunk) whatever the files' shapes: contained in 56px of height.
const LOGO: Slot = { kind: 'box', box: { width: 240, height: 56 } };
// Shown from 768px only, on the first screen (hence eager); below that it is never downloaded.
const PROMO: Slot = { kind: 'box', box: { width: 320, height: 56 }, media: '(min-width: 768px)' };

export function Header() {
  return (
    <header id={HEADER_ID} className={styles.header}>
      <div className={styles.inner}>
        {/* A plain link, not next/link: Link's client code is about 4 kB gzip that every first
            visit of the home page would download, for one link to a static page. */}
        {/* eslint-disable-next-line @next/next/no-html-link-for-pages */}
        <a href="/" className={styles.logoLink}>
          <Picture className={styles.logo} picture={brand.logo} slot={LOGO} eager />
        </a>
        <Picture className={styles.promo} picture={brand.promo} slot={PROMO} eager />
      </div>
      <HeaderScrollWatcher headerId={HEADER_ID} />
    </header>
  );
}
