import { Benefits } from '@/components/sections/benefits';
import { Clients } from '@/components/sections/clients';
import { Digital } from '@/components/sections/digital';
import { Hero } from '@/components/sections/hero';
import { Services } from '@/components/sections/services';
import { StructuredData } from '@/components/sections/structured-data';

// The contact Server Action runs on this route: Vercel's free-plan limit is
// 10 s, and the action answers within 9 s even when the contact API hangs.
export const maxDuration = 10;

export default function HomePage() {
  return (
    <>
      <StructuredData />
      <Hero />
      <Benefits />
      <Clients />
      <Services />
      <Digital />
    </>
  );
}
