import { SvgImage } from '@/components/svg-image';
import { benefits } from '@/lib/content';
import styles from './benefits.module.css';

export function Benefits() {
  return (
    <section className={`${styles.benefits} below-fold`} aria-labelledby="benefits-title">
      <div className={styles.inner}>
        <div>
          <h2 id="benefits-title" className="section-title">
            {benefits.heading}
          </h2>
          <ul className={styles.list}>
            {benefits.bullets.map((bullet) => (
              <li key={bullet}>{bullet}</li>
            ))}
          </ul>
        </div>
        <SvgImage
          className={styles.image}
          src={benefits.image.src}
          alt={benefits.image.alt}
          width={benefits.image.width}
          height={benefits.image.height}
        />
      </div>
    </section>
  );
}
