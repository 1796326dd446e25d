import { notFoundPage } from '@/lib/error-copy';

/**
 * What a visitor reads at an address with nothing behind it: a whole
 * document in Spanish, with the way back, without the site's layout. Next
 * renders it for an address no route serves (app/global-not-found.tsx) and,
 * outside every root layout, for a page that calls notFound()
 * (app/not-found.tsx). Plain markup and one inline style: Next sends the root
 * not-found's tree in the flight data of every page, so it is kept small.
 */
export function NotFoundPage() {
  return (
    <html lang="es-MX">
      <body>
        <title>{notFoundPage.documentTitle}</title>
        <main
          style={{
            maxWidth: '40rem',
            margin: '0 auto',
            padding: '3rem 1.25rem',
            fontFamily: 'Arial, sans-serif',
          }}
        >
          <h1>{notFoundPage.title}</h1>
          <p>{notFoundPage.text}</p>
          {/* eslint-disable-next-line @next/next/no-html-link-for-pages -- a plain link: no router here */}
          <a href="/">{notFoundPage.home}</a>
        </main>
      </body>
    </html>
  );
}
