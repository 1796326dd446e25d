import { iconSprite } from '@/lib/icons';

// Built once, at build time, and served as a static file.
export const dynamic = 'force-static';

export function GET() {
  return new Response(iconSprite(), { headers: { 'Content-Type': 'image/svg+xml; charset=utf-8' } });
}
