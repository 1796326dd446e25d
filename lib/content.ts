/**
 * Every word and image the page shows, in one place so the agency edits copy
 * without touching components. Addresses that change per deployment (WhatsApp,
 * privacy notice, thank-you page) live in the env module instead.
 */

// The error pages' copy and the phone live in lib/error-copy.ts (kept small: the error pages load it on every visit); edit them there.
import { agencyPhone } from './error-copy';

export type Slide = {
  /** Path under public/. */
  img: string;
  alt: string;
};

export type ContactDetails = {
  email: string;
  phoneDisplay: string;
  /** E.164, for tel: links and structured data. */
  phoneE164: string;
  street: string;
  neighborhood: string;
  city: string;
  region: string;
  postalCode: string;
  country: string;
};

export const brand = {
  name: 'Impulso Digital',
  legalName: 'Impulso Digital Agencia de Marketing',
  logo: { src: '/images/logo.svg', alt: 'Impulso Digital, agencia de marketing digital', width: 220, height: 56 },
  promo: {
    src: '/images/promo.svg',
    alt: 'Asesoría gratis: más de 14 años de experiencia en marketing digital',
    width: 300,
    height: 56,
  },
  mark: { src: '/images/mark.svg', alt: 'Impulso Digital', width: 48, height: 48 },
  yearsOfExperience: 14,
};

export const contactDetails: ContactDetails = {
  email: 'contacto@impulsodigital.mx',
  phoneDisplay: agencyPhone.display,
  phoneE164: agencyPhone.e164,
  street: 'Av. Presidente Masaryk 111, piso 2',
  neighborhood: 'Polanco',
  city: 'Ciudad de México',
  region: 'CDMX',
  postalCode: '11550',
  country: 'MX',
};

export const formattedAddress = `${contactDetails.street}, ${contactDetails.neighborhood}, ${contactDetails.city}, CP ${contactDetails.postalCode}`;

export const metadataCopy = {
  title: 'Impulso Digital | Páginas web y publicidad en Google y Facebook en CDMX',
  description:
    'Consigue nuevos clientes para tu negocio: diseño de páginas web para computadora, celular y tableta, publicidad en buscadores y en redes sociales. Más de 14 años de experiencia. Asesoría gratis.',
  ogImageAlt: 'Impulso Digital: nuevos clientes para tu negocio con marketing digital',
};

export const hero = {
  eyebrow: 'Agencia de marketing digital en la Ciudad de México',
  headline: 'Consigue nuevos clientes para tu negocio',
  lead: `Más de ${brand.yearsOfExperience} años de experiencia ayudando a pequeñas empresas a vender más en internet. Déjanos tus datos y recibe asesoría gratis: un asesor se pondrá en contacto contigo muy pronto.`,
  contactHeading: 'Contáctanos',
  formHeading: 'Solicita tu asesoría gratis',
};

export const benefits = {
  heading: 'Atrae clientes potenciales todos los días',
  bullets: [
    'Tu negocio aparece cuando tus clientes buscan lo que vendes.',
    'Una página web rápida que se ve bien en computadora, celular y tableta.',
    'Anuncios dirigidos solo a las personas de tu zona que pueden comprarte.',
    'Reportes claros: sabes cuántos clientes llegan y cuánto te cuesta cada uno.',
    'Asesoría gratis para elegir la estrategia que conviene a tu presupuesto.',
  ],
  image: {
    src: '/images/responsive-web.svg',
    alt: 'Una misma página web mostrada en computadora, tableta y celular',
    width: 560,
    height: 400,
  },
};

export const clients = {
  heading: 'Clientes que ya disfrutan los beneficios',
  carouselLabel: 'Logotipos de clientes',
  slides: [
    { img: '/images/clients/cafe-la-esquina.svg', alt: 'Café La Esquina' },
    { img: '/images/clients/dental-sonrisa.svg', alt: 'Clínica Dental Sonrisa' },
    { img: '/images/clients/taller-ruedas.svg', alt: 'Taller Mecánico Ruedas' },
    { img: '/images/clients/flores-lupita.svg', alt: 'Florería Lupita' },
    { img: '/images/clients/gimnasio-fuerza.svg', alt: 'Gimnasio Fuerza Norte' },
    { img: '/images/clients/despacho-rivera.svg', alt: 'Despacho Contable Rivera' },
  ] satisfies Slide[],
};

export type ServiceIcon = 'pencil-ruler' | 'search' | 'facebook';

export const services = {
  heading: 'Nuestros servicios',
  items: [
    {
      icon: 'pencil-ruler',
      title: 'Diseño de páginas web',
      text: 'Páginas web que se adaptan a computadora, celular y tableta, rápidas y pensadas para que tus visitantes te contacten.',
    },
    {
      icon: 'search',
      title: 'Publicidad en buscadores',
      text: 'Anuncios en Google para aparecer en los primeros resultados cuando tus clientes buscan tus productos o servicios.',
    },
    {
      icon: 'facebook',
      title: 'Publicidad en Facebook',
      text: 'Campañas en redes sociales dirigidas por zona, edad e intereses para llegar a quien sí puede comprarte.',
    },
  ] satisfies { icon: ServiceIcon; title: string; text: string }[],
};

export const digital = {
  heading: 'Marketing digital contra marketing tradicional',
  paragraphs: [
    'Un anuncio en radio, periódico o volantes llega a todos, aunque no les interese lo que vendes, y no sabes cuántos clientes te trajo.',
    'Con el marketing digital pagas por llegar a las personas que ya buscan tu producto, en tu zona, y mides cada resultado: cuántos te vieron, cuántos te escribieron y cuánto costó cada cliente.',
  ],
  comparison: [
    { label: 'Marketing tradicional', text: 'Mensaje para todos, resultados difíciles de medir.' },
    { label: 'Marketing digital', text: 'Mensaje para tus clientes potenciales, resultados medidos día a día.' },
  ],
  partnersHeading: 'Certificaciones y socios',
  carouselLabel: 'Certificaciones y socios',
  slides: [
    { img: '/images/partners/certificacion-busqueda.svg', alt: 'Certificación en publicidad de búsqueda' },
    { img: '/images/partners/certificacion-display.svg', alt: 'Certificación en publicidad de display' },
    { img: '/images/partners/certificacion-analitica.svg', alt: 'Certificación en analítica web' },
    { img: '/images/partners/socio-redes-sociales.svg', alt: 'Socio certificado en publicidad en redes sociales' },
    { img: '/images/partners/socio-comercio-electronico.svg', alt: 'Socio en comercio electrónico' },
    { img: '/images/partners/asociacion-marketing.svg', alt: 'Miembro de la asociación de marketing digital' },
  ] satisfies Slide[],
};

export const carouselCopy = {
  pause: 'Pausar el carrusel',
  play: 'Reproducir el carrusel',
  previous: 'Logotipo anterior',
  next: 'Logotipo siguiente',
  goTo: (index: number, total: number) => `Ir al logotipo ${index} de ${total}`,
  slideLabel: (index: number, total: number) => `${index} de ${total}`,
};

export const footer = {
  privacyLabel: 'AVISO DE PRIVACIDAD',
  rights: `© ${brand.name}. Todos los derechos reservados.`,
  social: [
    { network: 'twitter', label: 'Impulso Digital en Twitter', href: 'https://twitter.com/impulsodigitalmx' },
    { network: 'facebook', label: 'Impulso Digital en Facebook', href: 'https://www.facebook.com/impulsodigitalmx' },
  ] as const,
};

export const floatingChat = {
  label: 'Llama/escribenos',
  description: 'Escríbenos por WhatsApp (se abre en una pestaña nueva)',
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
  rateLimited: 'Recibimos varias solicitudes desde tu conexión en poco tiempo. Inténtalo de nuevo en unos minutos o escríbenos por',
  stale: 'Actualizamos el sitio mientras tenías la página abierta. Recárgala para enviar tu mensaje: lo que escribiste se conservará.',
  reload: 'Recargar la página',
  // A form sent without JavaScript from an older version of the page: the current form, filled in again.
  staleResend: 'Actualizamos el sitio mientras tenías la página abierta y tu mensaje no se envió. Lo que escribiste sigue aquí: revísalo y envíalo de nuevo.',
  thanksTitle: '¡Gracias por contactarnos!',
  thanksText: 'Un asesor se pondrá en contacto contigo muy pronto.',
};

export const privacyNotice = {
  title: 'Aviso de privacidad',
  paragraphs: [
    `${brand.legalName}, con domicilio en ${formattedAddress}, es responsable del tratamiento de los datos personales que nos proporcionas en el formulario de contacto.`,
    'Usamos tu nombre, correo electrónico, teléfono y mensaje únicamente para responder tu solicitud y ofrecerte la asesoría que pediste. No vendemos ni compartimos tus datos con terceros para fines distintos.',
    'Si en el momento de tu envío nuestro sistema de contacto no está disponible, guardamos tu solicitud de forma segura solo el tiempo necesario para entregarla: se borra en cuanto la recibimos y, si no se pudo entregar, a más tardar a los 30 días, después de darle seguimiento.',
    `Puedes ejercer tus derechos de acceso, rectificación, cancelación u oposición escribiendo a ${contactDetails.email}.`,
  ],
  questions: '¿Dudas sobre tus datos? Escríbenos a',
  back: 'Volver a la página principal',
};
