import { FaCompactDisc, FaSearch } from 'react-icons/fa';
import { LogoCarousel } from '@/components/carousel/logo-carousel';
import { digital } from '@/lib/content';
import styles from './digital.module.css';

const comparisonIcons = [FaCompactDisc, FaSearch];

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
              const Icon = comparisonIcons[index] ?? FaSearch;
              return (
                <div key={label} className={styles.item}>
                  <dt>
                    <Icon className={styles.icon} aria-hidden="true" focusable="false" />
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
