import { iconSprite } from '@/lib/icons';

export const dynamic = 'force-static';

export function GET() {
  return new Response(iconSprite(), {
    headers: { 'Content-Type': 'image/svg+xml; charset=utf-8' },
  });
}
