import type { Metadata, Viewport } from 'next';
import localFont from 'next/font/local';
import { Footer } from '@/components/layout/footer';
import { FloatingChat } from '@/components/layout/floating-chat';
import { Header } from '@/components/layout/header';
import { ThirdPartyScripts } from '@/components/layout/third-party-scripts';
import { brand, metadataCopy } from '@/lib/content';
import { publicEnv } from '@/lib/env/public';
import './globals.css';

// Self-hosted: the build machine has no internet for next/font/google. One
// weight, for headings only: 19 kB instead of the variable font's 38 kB, which
// shows in LCP on a slow phone. Body text uses the system's sans-serif.
const montserrat = localFont({
  src: '../../node_modules/@fontsource/montserrat/files/montserrat-latin-800-normal.woff2',
  weight: '800',
  style: 'normal',
  display: 'swap',
  variable: '--font-heading',
  adjustFontFallback: 'Arial',
  preload: false,
});

export const metadata: Metadata = {
  metadataBase: new URL(publicEnv.siteUrl),
  title: metadataCopy.title,
  description: metadataCopy.description,
  applicationName: brand.name,
  alternates: { canonical: '/' },
  openGraph: {
    type: 'website',
    locale: 'es_MX',
    url: '/',
    siteName: brand.name,
    title: metadataCopy.title,
    description: metadataCopy.description,
  },
  twitter: {
    card: 'summary_large_image',
    title: metadataCopy.title,
    description: metadataCopy.description,
  },
};

export const viewport: Viewport = {
  themeColor: '#0b3b60',
  width: 'device-width',
  initialScale: 1,
};

export default function RootLayout({ children }: Readonly<{ children: React.ReactNode }>) {
  return (
    <html lang="es-MX" className={montserrat.variable}>
      <body>
        <a className="skip-link" href="#contacto">
          Saltar al formulario de contacto
        </a>
        <Header />
        <main id="contenido">{children}</main>
        <Footer privacyNoticeUrl={publicEnv.privacyNoticeUrl} />
        <FloatingChat whatsappUrl={publicEnv.whatsappUrl} />
        <ThirdPartyScripts
          gaMeasurementId={publicEnv.gaMeasurementId}
          googleAdsId={publicEnv.googleAdsId}
          googleAdsConversionLabel={publicEnv.googleAdsConversionLabel}
          googleAdsEnhancedConversions={publicEnv.googleAdsEnhancedConversions}
          metaPixelId={publicEnv.metaPixelId}
          chatWidgetSrc={publicEnv.chatWidgetSrc}
        />
      </body>
    </html>
  );
}
