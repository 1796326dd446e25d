import { Picture, type Slot } from '@/components/picture';
import { SECTION_GUTTERS } from '@/lib/pictures/widths';
import { benefits } from '@/lib/content';
import styles from './benefits.module.css';

// As wide as its column: the page minus its gutters, then half of it (minus the gap) from 960px, at most 556px.
const IMAGE: Slot = {
  kind: 'column',
  widths: [
    { from: 1192, vw: 0, px: 556 },
    // Two columns with a 40px gap between them.
    { from: 960, vw: 0.5, px: -(SECTION_GUTTERS + 40) / 2 },
    { from: 0, vw: 1, px: -SECTION_GUTTERS },
  ],
};

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
        <Picture className={styles.image} picture={benefits.image} slot={IMAGE} />
      </div>
    </section>
  );
}
