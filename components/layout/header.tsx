import Link from 'next/link';
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
        {/* No prefetch: it would download this very page's RSC data on every visit. */}
        <Link href="/" prefetch={false} className={styles.logoLink}>
          <Picture className={styles.logo} picture={brand.logo} slot={LOGO} eager />
        </Link>
        <Picture className={styles.promo} picture={brand.promo} slot={PROMO} eager />
      </div>
      <HeaderScrollWatcher headerId={HEADER_ID} />
    </header>
  );
}
