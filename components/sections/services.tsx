import type { IconType } from 'react-icons';
import { FaFacebookF, FaPencilRuler, FaSearch } from 'react-icons/fa';
import { services, type ServiceIcon } from '@/lib/content';
import styles from './services.module.css';

const icons: Record<ServiceIcon, IconType> = {
  'pencil-ruler': FaPencilRuler,
  search: FaSearch,
  facebook: FaFacebookF,
};

export function Services() {
  return (
    <section className={`${styles.services} below-fold`} aria-labelledby="services-title">
      <div className={styles.inner}>
        <h2 id="services-title" className="section-title">
          {services.heading}
        </h2>
        <ul className={styles.grid}>
          {services.items.map(({ icon, title, text }) => {
            const Icon = icons[icon];
            return (
              <li key={title} className={styles.card}>
                <span className={styles.icon} data-icon={icon}>
                  <Icon aria-hidden="true" focusable="false" />
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
