import { Icon } from '@/components/icon';
import { Picture, type Slot } from '@/components/picture';
import { brand, footer } from '@/lib/content';
import styles from './footer.module.css';

const MARK: Slot = { kind: 'box', box: { width: 48, height: 48 } };

export function Footer({ privacyNoticeUrl }: { privacyNoticeUrl: string }) {
  return (
    <footer className={`${styles.footer} below-fold`}>
      <div className={styles.inner}>
        <div className={styles.brand}>
          <Picture picture={brand.mark} slot={MARK} />
          <span className={styles.brandName}>{brand.name}</span>
        </div>
        <ul className={styles.social} aria-label="Redes sociales">
          {footer.social.map(({ network, label, href }) => {
            return (
              <li key={network}>
                <a
                  href={href}
                  target="_blank"
                  rel="noopener noreferrer"
                  aria-label={label}
                  className={styles.socialLink}
                >
                  <Icon name={network} />
                </a>
              </li>
            );
          })}
        </ul>
        <a
          className={styles.privacy}
          href={privacyNoticeUrl}
          target="_blank"
          rel="noopener noreferrer"
        >
          {footer.privacyLabel}
        </a>
        <p className={styles.rights}>{footer.rights}</p>
      </div>
    </footer>
  );
}
