import { Benefits } from '@/components/sections/benefits';
import { Clients } from '@/components/sections/clients';
import { Digital } from '@/components/sections/digital';
import { Hero } from '@/components/sections/hero';
import { Services } from '@/components/sections/services';

export default function HomePage() {
  return (
    <>
      <Hero />
      <Benefits />
      <Clients />
      <Services />
      <Digital />
    </>
  );
}
