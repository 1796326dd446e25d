import { LogoCarousel } from '@/components/carousel/logo-carousel';
import { clients } from '@/lib/content';
import styles from './clients.module.css';

export function Clients() {
  return (
    <section className={`${styles.clients} below-fold`} aria-labelledby="clients-title">
      <div className={styles.inner}>
        <h2 id="clients-title" className="section-title">
          {clients.heading}
        </h2>
        <LogoCarousel slides={clients.slides} label={clients.carouselLabel} fourFrom={700} />
      </div>
    </section>
  );
}
