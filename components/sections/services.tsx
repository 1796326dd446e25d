import { Icon } from '@/components/icon';
import type { IconName } from '@/lib/icons';
import { services, type ServiceIcon } from '@/lib/content';
import styles from './services.module.css';

const icons: Record<ServiceIcon, IconName> = {
  'pencil-ruler': 'pencil-ruler',
  search: 'search',
  facebook: 'facebook',
};

/** `copy`: lib/content.ts's, or an experiment's variant's (lib/experiments/page-copy.ts). */
export function Services({ copy = services }: { copy?: typeof services }) {
  return (
    <section className={`${styles.services} below-fold`} aria-labelledby="services-title">
      <div className={styles.inner}>
        <h2 id="services-title" className="section-title">
          {copy.heading}
        </h2>
        <ul className={styles.grid}>
          {copy.items.map(({ icon, title, text }) => {
            return (
              <li key={title} className={styles.card}>
                <span className={styles.icon} data-icon={icon}>
                  <Icon name={icons[icon]} />
                </span>
                <h3 className={styles.title}>{title}</h3>
                <p className={styles.text}>{text}</p>
              </li>
            );
          })}
        </ul>
      </div>
    </section>
  );
}
