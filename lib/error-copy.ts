/**
 * The error pages' copy and the agency's phone, apart from content.ts (which
 * re-exports both): Next loads app/error.tsx and app/global-error.tsx with
 * every first visit, and importing content.ts there would ship all of the
 * site's copy again (about 1.3 kB gzip per error page).
 */

export const agencyPhone = { display: '55 1234 5678', e164: '+525512345678' };

export const errorPage = {
  title: 'Algo salió mal al mostrar la página',
  text: 'Puedes intentarlo de nuevo o ir directo al formulario de contacto. Si lo prefieres, llámanos.',
  retry: 'Intentar de nuevo',
  toForm: 'Ir al formulario de contacto',
  call: 'Llámanos al',
  /** The <title> of global-error.tsx, which replaces the layout and its metadata. */
  documentTitle: 'Algo salió mal | Impulso Digital',
};

/** The 404 page (components/layout/not-found-page.tsx), for an address with nothing behind it. */
export const notFoundPage = {
  documentTitle: 'Página no encontrada | Impulso Digital',
  title: 'No encontramos esta página',
  text: 'La dirección no existe o cambió. Lo que buscas está en la página de inicio.',
  home: 'Ir a la página de inicio',
};
