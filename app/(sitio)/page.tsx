import { Home } from '@/components/sections/home';

// The contact Server Action runs on this route: 10 s is Vercel's free-plan
// limit, and its work, after() included, ends within 9 s (AFTER_ENDS_BY_MS).
export const maxDuration = 10;

/** The page as lib/content.ts has it; while an experiment runs, the proxy serves its variants instead (variante/). */
export default function HomePage() {
  return <Home />;
}
