import type { ProfessionalService, WithContext } from 'schema-dts';
import { brand, contactDetails, metadataCopy, services } from '@/lib/content';
import { publicEnv } from '@/lib/env/public';

/** The agency as a local professional service, escaped for a script element. */
export function agencyJson(): string {
  const data: WithContext<ProfessionalService> = {
    '@context': 'https://schema.org',
    '@type': 'ProfessionalService',
    '@id': `${publicEnv.siteUrl}/#agencia`,
    name: brand.name,
    legalName: brand.legalName,
    description: metadataCopy.description,
    url: `${publicEnv.siteUrl}/`,
    logo: `${publicEnv.siteUrl}${brand.logo.src}`,
    image: `${publicEnv.siteUrl}/opengraph-image`,
    email: contactDetails.email,
    telephone: contactDetails.phoneE164,
    address: {
      '@type': 'PostalAddress',
      streetAddress: contactDetails.street,
      addressLocality: `${contactDetails.neighborhood}, ${contactDetails.city}`,
      addressRegion: contactDetails.region,
      postalCode: contactDetails.postalCode,
      addressCountry: contactDetails.country,
    },
    areaServed: { '@type': 'Country', name: 'México' },
    knowsLanguage: 'es-MX',
    hasOfferCatalog: {
      '@type': 'OfferCatalog',
      name: services.heading,
      itemListElement: services.items.map((service) => ({
        '@type': 'Offer',
        itemOffered: { '@type': 'Service', name: service.title, description: service.text },
      })),
    },
  };
  // `<` escaped so no text in the content can close the script element.
  return JSON.stringify(data).replace(/</g, '\\u003c');
}
