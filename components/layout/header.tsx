import Link from 'next/link';
import { SvgImage } from '@/components/svg-image';
import { brand } from '@/lib/content';
import { HeaderScrollWatcher } from './header-scroll-watcher';
import styles from './header.module.css';

const HEADER_ID = 'site-header';

export function Header() {
  return (
    <header id={HEADER_ID} className={styles.header}>
      <div className={styles.inner}>
        {/* No prefetch: it would download this very page's RSC data on every visit. */}
        <Link href="/" prefetch={false} className={styles.logoLink}>
          <SvgImage
            className={styles.logo}
            src={brand.logo.src}
            alt={brand.logo.alt}
            width={brand.logo.width}
            height={brand.logo.height}
            eager
          />
        </Link>
        {/* Lazy: hidden below 768px, and a hidden lazy image is never downloaded. */}
        <SvgImage
          className={styles.promo}
          src={brand.promo.src}
          alt={brand.promo.alt}
          width={brand.promo.width}
          height={brand.promo.height}
        />
      </div>
      <HeaderScrollWatcher headerId={HEADER_ID} />
    </header>
  );
}
