/**
 * Every word and image the page shows, in one place so the agency edits copy
 * without touching components. Addresses that change per deployment (WhatsApp,
 * privacy notice, thank-you page) live in the env module instead.
 */

import type { StaticImageData } from 'next/image';
// Pictures: each is a file under public/images imported here, so its width and height come from the file.
// To change one, see docs/contenido.md; `next build` checks every picture named here.
import benefitsImage from '@/public/images/responsive-web.svg';
import cafeLaEsquina from '@/public/images/clients/cafe-la-esquina.svg';
import dentalSonrisa from '@/public/images/clients/dental-sonrisa.svg';
import despachoRivera from '@/public/images/clients/despacho-rivera.svg';
import floresLupita from '@/public/images/clients/flores-lupita.svg';
import gimnasioFuerza from '@/public/images/clients/gimnasio-fuerza.svg';
import tallerRuedas from '@/public/images/clients/taller-ruedas.svg';
import logoImage from '@/public/images/logo.svg';
import markImage from '@/public/images/mark.svg';
import asociacionMarketing from '@/public/images/partners/asociacion-marketing.svg';
import certificacionAnalitica from '@/public/images/partners/certificacion-analitica.svg';
import certificacionBusqueda from '@/public/images/partners/certificacion-busqueda.svg';
import certificacionDisplay from '@/public/images/partners/certificacion-display.svg';
import socioComercioElectronico from '@/public/images/partners/socio-comercio-electronico.svg';
import socioRedesSociales from '@/public/images/partners/socio-redes-sociales.svg';
import promoImage from '@/public/images/promo.svg';
// The error pages' copy and the phone live in lib/error-copy.ts (kept small: the error pages load it on every visit);
// edit them there.
import { agencyPhone } from './error-copy';

/** A picture: the static import of its file (above) and what it says. */
export type PictureContent = {
  src: StaticImageData;
  alt: string;
  /** Only adorns (the words beside it already say it): its alt may be ''. */
  decorative?: true;
};

/** A carousel slide: a picture and its text. */
export type Slide = {
  img: StaticImageData;
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
  logo: {
    src: logoImage,
    alt: 'Impulso Digital, agencia de marketing digital',
  } satisfies PictureContent,
  promo: {
    src: promoImage,
    alt: 'Asesoría gratis: más de 14 años de experiencia en marketing digital',
  } satisfies PictureContent,
  // The footer writes the agency's name beside it.
  mark: { src: markImage, alt: '', decorative: true } satisfies PictureContent,
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

export const formattedAddress =
  `${contactDetails.street}, ${contactDetails.neighborhood}, ` +
  `${contactDetails.city}, CP ${contactDetails.postalCode}`;

export const metadataCopy = {
  title: 'Impulso Digital | Páginas web y publicidad en Google y Facebook en CDMX',
  description:
    'Consigue nuevos clientes para tu negocio: diseño de páginas web para computadora, celular y tableta, ' +
    'publicidad en buscadores y en redes sociales. Más de 14 años de experiencia. Asesoría gratis.',
  ogImageAlt: 'Impulso Digital: nuevos clientes para tu negocio con marketing digital',
};

export const hero = {
  eyebrow: 'Agencia de marketing digital en la Ciudad de México',
  headline: 'Consigue nuevos clientes para tu negocio',
  lead:
    `Más de ${brand.yearsOfExperience} años de experiencia ayudando a pequeñas empresas a vender más en internet. ` +
    `Déjanos tus datos y recibe asesoría gratis: un asesor se pondrá en contacto contigo muy pronto.`,
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
    src: benefitsImage,
    alt: 'Una misma página web mostrada en computadora, tableta y celular',
  } satisfies PictureContent,
};

export const clients = {
  heading: 'Clientes que ya disfrutan los beneficios',
  carouselLabel: 'Logotipos de clientes',
  slides: [
    { img: cafeLaEsquina, alt: 'Café La Esquina' },
    { img: dentalSonrisa, alt: 'Clínica Dental Sonrisa' },
    { img: tallerRuedas, alt: 'Taller Mecánico Ruedas' },
    { img: floresLupita, alt: 'Florería Lupita' },
    { img: gimnasioFuerza, alt: 'Gimnasio Fuerza Norte' },
    { img: despachoRivera, alt: 'Despacho Contable Rivera' },
  ] satisfies Slide[],
};

export type ServiceIcon = 'pencil-ruler' | 'search' | 'facebook';

export const services = {
  heading: 'Nuestros servicios',
  items: [
    {
      icon: 'pencil-ruler',
      title: 'Diseño de páginas web',
      text:
        'Páginas web que se adaptan a computadora, celular y tableta, rápidas y pensadas para que tus visitantes ' +
        'te contacten.',
    },
    {
      icon: 'search',
      title: 'Publicidad en buscadores',
      text:
        'Anuncios en Google para aparecer en los primeros resultados cuando tus clientes buscan tus productos o ' +
        'servicios.',
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
    'Un anuncio en radio, periódico o volantes llega a todos, aunque no les interese lo que vendes, y no sabes ' +
      'cuántos clientes te trajo.',
    'Con el marketing digital pagas por llegar a las personas que ya buscan tu producto, en tu zona, y mides cada ' +
      'resultado: cuántos te vieron, cuántos te escribieron y cuánto costó cada cliente.',
  ],
  comparison: [
    { label: 'Marketing tradicional', text: 'Mensaje para todos, resultados difíciles de medir.' },
    {
      label: 'Marketing digital',
      text: 'Mensaje para tus clientes potenciales, resultados medidos día a día.',
    },
  ],
  partnersHeading: 'Certificaciones y socios',
  carouselLabel: 'Certificaciones y socios',
  slides: [
    { img: certificacionBusqueda, alt: 'Certificación en publicidad de búsqueda' },
    { img: certificacionDisplay, alt: 'Certificación en publicidad de display' },
    { img: certificacionAnalitica, alt: 'Certificación en analítica web' },
    { img: socioRedesSociales, alt: 'Socio certificado en publicidad en redes sociales' },
    { img: socioComercioElectronico, alt: 'Socio en comercio electrónico' },
    { img: asociacionMarketing, alt: 'Miembro de la asociación de marketing digital' },
  ] satisfies Slide[],
};

export const footer = {
  privacyLabel: 'AVISO DE PRIVACIDAD',
  rights: `© ${brand.name}. Todos los derechos reservados.`,
  social: [
    {
      network: 'twitter',
      label: 'Impulso Digital en Twitter',
      href: 'https://twitter.com/impulsodigitalmx',
    },
    {
      network: 'facebook',
      label: 'Impulso Digital en Facebook',
      href: 'https://www.facebook.com/impulsodigitalmx',
    },
  ] as const,
};

export const floatingChat = {
  label: 'Llama/escribenos',
  description: 'Escríbenos por WhatsApp (se abre en una pestaña nueva)',
};

// The form's and the carousels' words live in lib/island-copy.ts (the browser downloads them with the form's and
// carousels' code, and the pictures imported above must not come along): edit them there.
export { carouselCopy, contactForm } from './island-copy';

/**
 * Under the contact form: who is responsible and why, as the law asks where data is collected; the link goes to the
 * full notice.
 */
export const privacyShortNotice = {
  text:
    `${brand.legalName} es responsable de tus datos y los usa para responder tu solicitud y medir qué anuncios ` +
    `nos traen clientes.`,
  link: 'Aviso de privacidad',
};

/** A row of the notice's cookie table. */
export type NoticeCookie = { name: string; owner: string; purpose: string; lasts: string };

/**
 * The full privacy notice (app/aviso-de-privacidad), under Mexico's Ley
 * Federal de Protección de Datos Personales en Posesión de los Particulares
 * (2025). What it says of the site must stay true: change it with the code.
 */
export const privacyNotice = {
  title: 'Aviso de privacidad',
  intro:
    `${brand.legalName}, con domicilio en ${formattedAddress}, es responsable del tratamiento de los datos ` +
    `personales que nos proporcionas en este sitio, conforme a la Ley Federal de Protección de Datos Personales ` +
    `en Posesión de los Particulares.`,
  sections: [
    {
      heading: 'Qué datos usamos y para qué',
      paragraphs: [
        'En el formulario de contacto nos das tu nombre, correo electrónico, teléfono y mensaje. Los usamos para ' +
          'responder tu solicitud y ofrecerte la asesoría que pediste: es la finalidad principal, y la única ' +
          'necesaria para atenderte.',
        'También los usamos para medir qué anuncios nos traen solicitudes (finalidad secundaria, explicada ' +
          'abajo). Si no quieres que los usemos para eso, escríbenos como se indica en «Tus derechos ARCO»; negarte ' +
          'no cambia en nada la atención a tu solicitud.',
      ],
    },
    {
      heading: 'Cookies y etiquetas',
      // The table of `cookies` below follows this section.
      withCookies: true,
      paragraphs: [
        // The first-party cookies of lib/contact/source.ts (proxy.ts writes them): change them together.
        'Si llegas a este sitio desde un anuncio, una campaña u otro sitio (un buscador, por ejemplo), guardamos ' +
          'en tu navegador dos cookies propias con el identificador del clic, las etiquetas de la campaña, la ' +
          'página de llegada y el sitio del que vienes: «origen», mientras dura tu visita, y «origen_primero», 90 ' +
          'días. Las usamos solo para saber qué anuncio trajo tu solicitud y se guardan con ella; no las leen ' +
          'terceros.',
        // components/layout/third-party-tags.tsx and lib/browser/consent.ts: change them together.
        'Unos segundos después de abrir la página, o al enviar el formulario, el sitio carga las etiquetas de ' +
          'Google Analytics 4, Google Ads y el Píxel de Meta, que guardan sus propias cookies. Si nos visitas desde ' +
          'el Espacio Económico Europeo, el Reino Unido o Suiza, las etiquetas de Google no guardan cookies ni usan ' +
          'tus datos para publicidad. Puedes borrar o bloquear las cookies en tu navegador: el sitio y el ' +
          'formulario siguen funcionando.',
      ],
    },
    {
      heading: 'Con quién compartimos tus datos y por qué',
      paragraphs: [
        'Con nuestras propias herramientas de trabajo (nuestro CRM o una hoja de cálculo), a las que nuestro ' +
          'servidor envía cada solicitud por un webhook: los datos del formulario, de dónde llegaste, la clave de ' +
          'la solicitud y cuándo la recibimos. Las usamos para dar seguimiento a tu solicitud.',
        'Con Google (Google Analytics 4 y Google Ads): las páginas que visitas y, cuando envías el formulario, ' +
          'que hubo una solicitud, con su clave. Con las conversiones mejoradas de Google Ads, tu navegador envía ' +
          'además tu correo y tu teléfono cifrados con un hash (SHA-256), del que no se pueden recuperar, para que ' +
          'Google reconozca si viste nuestro anuncio.',
        'Con Meta (Píxel de Meta y API de Conversiones de Meta): las páginas que visitas, si abres WhatsApp desde ' +
          'el sitio y, cuando envías el formulario, que hubo una solicitud. Nuestro servidor envía además a Meta tu ' +
          'correo y tu teléfono cifrados con un hash (SHA-256), tu dirección IP, el agente de usuario de tu ' +
          'navegador y el identificador del clic en el anuncio (cookies «_fbp» y «_fbc»).',
        'A Google y a Meta les damos estos datos solo para medir qué anuncios nos traen solicitudes (la finalidad ' +
          'secundaria). Ellos los tratan también según sus propios avisos de privacidad. No vendemos tus datos.',
      ],
    },
    {
      heading: 'Cuánto tiempo los conservamos',
      paragraphs: [
        // The periods are CONTACT_KEEP_DAYS (30) and the 24 hours of retries (lib/contact/lead/, forward-workflow.ts):
        // change them together.
        'Si en el momento de tu envío nuestro sistema de contacto no está disponible, guardamos tu solicitud de ' +
          'forma segura para entregarla: la reintentamos hasta 24 horas. Si no se pudo entregar, la conservamos 30 ' +
          'días para darte seguimiento. Los mensajes que nuestro filtro de spam aparta se conservan 30 días. Lo que ' +
          'enviamos a nuestras herramientas de trabajo y a la API de Conversiones de Meta también se reintenta ' +
          'hasta 24 horas si no lo reciben.',
        // Our own servers: lib/contact/lead/forget-workflow.ts deletes each run. Vercel: forgetAfter leaves runs to
        // Vercel (docs/operations.md).
        'Cuándo se borran estas copias depende de dónde funcione el sitio. En nuestros propios servidores, en ' +
          'cuanto termina la entrega o, las que conservamos, a los 30 días. En Vercel, nuestro proveedor de ' +
          'alojamiento, las conserva Vercel durante el periodo de retención que fija nuestro plan, en lugar de esos ' +
          'plazos.',
        'En nuestras herramientas conservamos tu solicitud mientras te damos seguimiento, o hasta que nos pidas ' +
          'borrarla. Cada cookie dura lo que indica la tabla; Google y Meta conservan lo que reciben según sus ' +
          'propias políticas.',
      ],
    },
    {
      heading: 'Tus derechos ARCO',
      paragraphs: [
        `Puedes ejercer tus derechos de acceso, rectificación, cancelación u oposición, o revocar tu ` +
          `consentimiento, escribiendo a ${contactDetails.email}. Incluye tu nombre, el correo o teléfono con que ` +
          `nos contactaste, el derecho que quieres ejercer y, si pides una rectificación, el dato correcto.`,
        'Te respondemos en un máximo de 20 días hábiles; si procede, lo hacemos efectivo en los 15 días hábiles ' +
          'siguientes. Si no quedas conforme con nuestra respuesta, puedes acudir a la Secretaría Anticorrupción y ' +
          'Buen Gobierno.',
        'Si cambiamos este aviso, publicaremos la nueva versión en esta página.',
      ],
    },
  ],
  cookiesCaption: 'Cookies que usa este sitio',
  cookiesColumns: { name: 'Cookie', owner: 'De quién', purpose: 'Para qué', lasts: 'Duración' },
  cookies: [
    {
      name: 'origen',
      owner: brand.name,
      purpose: 'De qué anuncio, campaña o sitio viene tu visita actual',
      lasts: 'Mientras dura tu visita',
    },
    {
      name: 'origen_primero',
      owner: brand.name,
      purpose: 'El primer anuncio, campaña o sitio que te trajo',
      lasts: '90 días',
    },
    {
      name: '_ga, _ga_…',
      owner: 'Google Analytics 4',
      purpose: 'Distinguir visitantes para contar visitas',
      lasts: '2 años',
    },
    {
      name: '_gcl_au',
      owner: 'Google Ads',
      purpose: 'Relacionar una solicitud con el clic en un anuncio',
      lasts: '90 días',
    },
    {
      name: '_fbp',
      owner: 'Píxel de Meta',
      purpose: 'Distinguir navegadores para medir anuncios',
      lasts: '90 días',
    },
    {
      name: '_fbc',
      owner: 'Píxel de Meta',
      purpose: 'El identificador del clic en un anuncio de Meta',
      lasts: '90 días',
    },
  ] satisfies NoticeCookie[],
  questions: '¿Dudas sobre tus datos? Escríbenos a',
  back: 'Volver a la página principal',
};
