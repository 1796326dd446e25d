import { trackEvent } from './analytics';
import { CONSENT_REGIONS, queueConsentDefaults } from './consent';

const commands = () => (window.dataLayer ?? []).map((entry) => Array.from(entry as IArguments));
const DENIED = {
  ad_storage: 'denied',
  ad_user_data: 'denied',
  ad_personalization: 'denied',
  analytics_storage: 'denied',
};
const GRANTED = {
  ad_storage: 'granted',
  ad_user_data: 'granted',
  ad_personalization: 'granted',
  analytics_storage: 'granted',
};

describe('Google Consent Mode defaults', () => {
  beforeEach(() => {
    delete window.dataLayer;
  });

  it('denies storage and ads in the EEA, the UK and Switzerland, and grants them elsewhere, in that order', () => {
    queueConsentDefaults();
    expect(commands()).toEqual([
      ['consent', 'default', { ...DENIED, region: CONSENT_REGIONS }],
      ['consent', 'default', GRANTED],
    ]);
  });

  it('names the 30 countries of the EEA, the UK and Switzerland', () => {
    expect(new Set(CONSENT_REGIONS).size).toBe(32);
    for (const country of ['DE', 'FR', 'ES', 'IE', 'PL', 'IS', 'LI', 'NO', 'GB', 'CH'])
      expect(CONSENT_REGIONS).toContain(country);
    for (const country of ['MX', 'US', 'CA']) expect(CONSENT_REGIONS).not.toContain(country);
  });

  it('comes before what the page queued earlier (a WhatsApp click, the form), which stays, in order, and still as Arguments', () => {
    trackEvent('whatsapp');
    trackEvent('formulario');
    queueConsentDefaults();
    expect(commands().map((entry) => entry.slice(0, 2))).toEqual([
      ['consent', 'default'],
      ['consent', 'default'],
      ['event', 'whatsapp'],
      ['event', 'formulario'],
    ]);
    for (const entry of window.dataLayer ?? [])
      expect(Object.prototype.toString.call(entry)).toBe('[object Arguments]');
  });
});
