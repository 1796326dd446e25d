import type { MetadataRoute } from 'next';
import { publicEnv } from '@/lib/env/public';

export default function sitemap(): MetadataRoute.Sitemap {
  return [
    { url: `${publicEnv.siteUrl}/`, changeFrequency: 'monthly', priority: 1 },
    { url: `${publicEnv.siteUrl}/aviso-de-privacidad`, changeFrequency: 'yearly', priority: 0.2 },
  ];
}
