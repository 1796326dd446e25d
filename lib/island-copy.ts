/**
 * The words of the page's interactive parts (the contact form, the
 * carousels), apart from lib/content.ts: their code is downloaded by the
 * browser with what it imports, and lib/content.ts imports every picture.
 * The agency edits them here; lib/content.ts re-exports them.
 */

export const carouselCopy = {
  pause: 'Pausar el carrusel',
  play: 'Reproducir el carrusel',
  previous: 'Logotipo anterior',
  next: 'Logotipo siguiente',
  goTo: (index: number, total: number) => `Ir al logotipo ${index} de ${total}`,
  slideLabel: (index: number, total: number) => `${index} de ${total}`,
};

export const contactForm = {
  labels: {
    name: 'Nombre',
    mail: 'Correo electrónico',
    phone: 'Teléfono',
    reason: '¿En qué podemos ayudarte?',
  },
  submit: 'Enviar',
  sending: 'Enviando tu mensaje…',
  invalid: 'Revisa los campos marcados.',
  failed: 'No pudimos enviar tu mensaje. Inténtalo de nuevo en unos minutos o escríbenos por',
  failedLink: 'WhatsApp',
  rateLimited:
    'Recibimos varias solicitudes desde tu conexión en poco tiempo. Inténtalo de nuevo en unos minutos o ' +
    'escríbenos por',
  stale:
    'Actualizamos el sitio mientras tenías la página abierta. Recárgala para enviar tu mensaje: lo que escribiste ' +
    'se conservará.',
  reload: 'Recargar la página',
  // A form sent without JavaScript from an older version of the page: the current form, filled in again.
  staleResend:
    'Actualizamos el sitio mientras tenías la página abierta y tu mensaje no se envió. Lo que escribiste sigue ' +
    'aquí: revísalo y envíalo de nuevo.',
  // A form sent before the page could sign its time on screen (no JavaScript): the server asks once.
  confirm: (submit: string) => `Para confirmar el envío, presiona «${submit}» otra vez.`,
  thanksTitle: '¡Gracias por contactarnos!',
  thanksText: 'Un asesor se pondrá en contacto contigo muy pronto.',
};
