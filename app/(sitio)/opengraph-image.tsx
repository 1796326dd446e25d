import { ImageResponse } from 'next/og';
import { brand, hero, metadataCopy } from '@/lib/content';
import { BRAND_COLOURS, fillingBox } from '@/lib/server/brand-image';

export const alt = metadataCopy.ogImageAlt;
export const size = { width: 1200, height: 630 };
export const contentType = 'image/png';

// Rendered once at build time (static), shared by Open Graph and Twitter cards.
export default function OpenGraphImage() {
  return new ImageResponse(
    <div
      style={fillingBox({
        flexDirection: 'column',
        justifyContent: 'space-between',
        padding: '72px 80px',
        background: `linear-gradient(160deg, ${BRAND_COLOURS.navy} 0%, #0f4c75 60%, #0f766e 140%)`,
        color: '#fff',
      })}
    >
      <div style={{ display: 'flex', alignItems: 'center', fontSize: 40, fontWeight: 700 }}>
        <div
          style={{
            width: 72,
            height: 72,
            borderRadius: 18,
            background: BRAND_COLOURS.teal,
            marginRight: 24,
            display: 'flex',
          }}
        />
        {brand.name}
      </div>
      <div
        style={{ display: 'flex', fontSize: 76, fontWeight: 800, lineHeight: 1.1, maxWidth: 980 }}
      >
        {hero.headline}
      </div>
      <div style={{ display: 'flex', fontSize: 32, color: '#99f6e4' }}>
        Páginas web · Publicidad en Google y Facebook · Asesoría gratis
      </div>
    </div>,
    size,
  );
}
