import type { ReactElement, ReactNode } from 'react';
import type { IconType } from 'react-icons';
import {
  FaChevronLeft,
  FaChevronRight,
  FaCompactDisc,
  FaEnvelopeOpen,
  FaFacebookF,
  FaMapMarkerAlt,
  FaPaperPlane,
  FaPause,
  FaPencilRuler,
  FaPhone,
  FaPlay,
  FaSearch,
  FaTwitter,
  FaWhatsapp,
} from 'react-icons/fa';

/**
 * Every icon the site shows (the spec's set, plus pause and play for the
 * carousels), from react-icons. They are served once, as the sprite
 * `/icons.svg`, and each use is a two-line `<svg><use>`: drawn inline, their
 * paths would be a third of the home page's HTML, twice (markup and RSC payload).
 */
export const ICONS = {
  'chevron-left': FaChevronLeft,
  'chevron-right': FaChevronRight,
  'compact-disc': FaCompactDisc,
  'envelope-open': FaEnvelopeOpen,
  facebook: FaFacebookF,
  'map-marker-alt': FaMapMarkerAlt,
  'paper-plane': FaPaperPlane,
  pause: FaPause,
  'pencil-ruler': FaPencilRuler,
  phone: FaPhone,
  play: FaPlay,
  search: FaSearch,
  twitter: FaTwitter,
  whatsapp: FaWhatsapp,
} satisfies Record<string, IconType>;

export type IconName = keyof typeof ICONS;

export const ICON_SPRITE_PATH = '/icons.svg';

type Element = ReactElement<
  { attr?: Record<string, string>; children?: ReactNode } & Record<string, unknown>
>;

const escape = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** The markup of react-icons' element tree (plain tags with string attributes). */
function markup(node: ReactNode): string {
  if (Array.isArray(node)) return node.map(markup).join('');
  if (!node || typeof node !== 'object' || !('type' in node) || typeof node.type !== 'string')
    return '';
  const { children, ...attributes } = (node as Element).props;
  const attrs = Object.entries(attributes)
    .filter(([, value]) => typeof value === 'string' || typeof value === 'number')
    .map(([name, value]) => ` ${name}="${escape(String(value))}"`)
    .join('');
  return `<${node.type}${attrs}>${markup(children)}</${node.type}>`;
}

/** One `<symbol>` per icon, named as in ICONS. */
export function iconSprite(): string {
  const symbols = Object.entries(ICONS).map(([name, Icon]) => {
    // An icon component returns <IconBase attr={{ viewBox }}>{paths}</IconBase>.
    const icon = Icon({}) as Element;
    const viewBox = icon.props.attr?.viewBox ?? '0 0 512 512';
    return `<symbol id="${name}" viewBox="${viewBox}">${markup(icon.props.children)}</symbol>`;
  });
  return `<svg xmlns="http://www.w3.org/2000/svg">${symbols.join('')}</svg>`;
}
