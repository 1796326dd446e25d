import { ImageResponse } from 'next/og';

export const size = { width: 180, height: 180 };
export const contentType = 'image/png';

export default function AppleIcon() {
  return new ImageResponse(
    <div
      style={{
        width: '100%',
        height: '100%',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        background: '#0b3b60',
        color: '#2dd4bf',
        fontSize: 96,
        fontWeight: 800,
      }}
    >
      ID
    </div>,
    size,
  );
}
