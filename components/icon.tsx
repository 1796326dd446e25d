import { ICON_SPRITE_PATH, type IconName } from '@/lib/icons';

/**
 * A decorative icon from the sprite (lib/icons.ts), 1em square in the text's
 * colour. Always next to text or inside a labelled control, so hidden from
 * assistive technology.
 */
export function Icon({ name, className }: { name: IconName; className?: string }) {
  return (
    <svg
      className={className}
      width="1em"
      height="1em"
      fill="currentColor"
      aria-hidden="true"
      focusable="false"
    >
      <use href={`${ICON_SPRITE_PATH}#${name}`} />
    </svg>
  );
}
