import { ImageResponse } from 'next/og';
import { BRAND_COLOURS, fillingBox } from '@/lib/server/brand-image';

export const size = { width: 180, height: 180 };
export const contentType = 'image/png';

export default function AppleIcon() {
  return new ImageResponse(
    <div
      style={fillingBox({
        alignItems: 'center',
        justifyContent: 'center',
        background: BRAND_COLOURS.navy,
        color: BRAND_COLOURS.teal,
        fontSize: 96,
        fontWeight: 800,
      })}
    >
      ID
    </div>,
    size,
  );
}
