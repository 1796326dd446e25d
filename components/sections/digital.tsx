import { LogoCarousel } from '@/components/carousel/logo-carousel';
import { Icon } from '@/components/icon';
import { digital } from '@/lib/content';
import type { IconName } from '@/lib/icons';
import styles from './digital.module.css';

const comparisonIcons: IconName[] = ['compact-disc', 'search'];

export function Digital() {
  return (
    <section className={`${styles.digital} below-fold`} aria-labelledby="digital-title">
      <div className={styles.inner}>
        <h2 id="digital-title" className="section-title">
          {digital.heading}
        </h2>
        <div className={styles.body}>
          <div>
            {digital.paragraphs.map((paragraph) => (
              <p key={paragraph} className={styles.paragraph}>
                {paragraph}
              </p>
            ))}
          </div>
          <dl className={styles.comparison}>
            {digital.comparison.map(({ label, text }, index) => {
              return (
                <div key={label} className={styles.item}>
                  <dt>
                    <Icon name={comparisonIcons[index] ?? 'search'} className={styles.icon} />
                    {label}
                  </dt>
                  <dd>{text}</dd>
                </div>
              );
            })}
          </dl>
        </div>
        <h3 className={styles.partnersTitle}>{digital.partnersHeading}</h3>
        <LogoCarousel slides={digital.slides} label={digital.carouselLabel} fourFrom={400} />
      </div>
    </section>
  );
}
