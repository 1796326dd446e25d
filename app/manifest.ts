import type { MetadataRoute } from 'next';
import { brand, metadataCopy } from '@/lib/content';

export default function manifest(): MetadataRoute.Manifest {
  return {
    name: brand.name,
    short_name: brand.name,
    description: metadataCopy.description,
    lang: 'es-MX',
    start_url: '/',
    display: 'browser',
    background_color: '#ffffff',
    theme_color: '#0b3b60',
    icons: [
      { src: '/icon.svg', sizes: 'any', type: 'image/svg+xml' },
      { src: '/apple-icon', sizes: '180x180', type: 'image/png' },
    ],
  };
}
