import { Benefits } from '@/components/sections/benefits';
import { Clients } from '@/components/sections/clients';
import { Digital } from '@/components/sections/digital';
import { Hero } from '@/components/sections/hero';
import { Services } from '@/components/sections/services';
import { StructuredData } from '@/components/sections/structured-data';

// The contact Server Action runs on this route: 10 s is Vercel's free-plan
// limit, and its work, after() included, ends within 9 s (AFTER_ENDS_BY_MS).
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
