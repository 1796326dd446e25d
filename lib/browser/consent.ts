import { gtag } from './analytics';

/**
 * Google Consent Mode v2 defaults, set before any Google tag runs. The site
 * shows no consent banner (its visitors are in Mexico): storage and ads are
 * denied where the law asks for consent first (the EEA, the United Kingdom
 * and Switzerland) and granted everywhere else, Google's regional-defaults
 * pattern. Imported only by the lazily loaded tags chunk.
 */

/** The EU's 27 members, Iceland, Liechtenstein and Norway (ISO 3166-1 alpha-2), the UK and Switzerland. */
export const CONSENT_REGIONS = [
  'AT',
  'BE',
  'BG',
  'HR',
  'CY',
  'CZ',
  'DK',
  'EE',
  'FI',
  'FR',
  'DE',
  'GR',
  'HU',
  'IE',
  'IT',
  'LV',
  'LT',
  'LU',
  'MT',
  'NL',
  'PL',
  'PT',
  'RO',
  'SK',
  'SI',
  'ES',
  'SE',
  'IS',
  'LI',
  'NO',
  'GB',
  'CH',
];

const consent = (value: 'denied' | 'granted') => ({
  ad_storage: value,
  ad_user_data: value,
  ad_personalization: value,
  analytics_storage: value,
});

/**
 * Queues the defaults as the first commands gtag.js will read: anything
 * queued before (a WhatsApp click, the form's 'formulario') goes back after
 * them. Call once, before gtag.js can have loaded (only the tags chunk loads it).
 */
export function queueConsentDefaults(): void {
  if (typeof window === 'undefined') return;
  const earlier = window.dataLayer?.splice(0) ?? [];
  // The most specific default wins: the regional one for those countries, the general one elsewhere.
  gtag('consent', 'default', { ...consent('denied'), region: CONSENT_REGIONS });
  gtag('consent', 'default', consent('granted'));
  window.dataLayer?.push(...earlier);
}
