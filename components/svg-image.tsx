/**
 * An `<img>` for the site's own SVG pictures, rendered on the server only.
 *
 * `next/image` serves SVGs unoptimized anyway (same bytes, same markup), but
 * it is a client component: it added its code to every first visit and
 * hydrated each picture. Width and height are always given, so the browser
 * reserves the box before the file arrives; pictures load lazily unless they
 * are part of the first screen.
 */
export function SvgImage({
  src,
  alt,
  width,
  height,
  className,
  eager = false,
}: {
  /** Path under public/. */
  src: string;
  alt: string;
  width: number;
  height: number;
  className?: string;
  /** For a picture in the first screen: fetched at once, with high priority. */
  eager?: boolean;
}) {
  return (
    // eslint-disable-next-line @next/next/no-img-element -- next/image would only add client code for an SVG.
    <img
      src={src}
      alt={alt}
      width={width}
      height={height}
      className={className}
      loading={eager ? 'eager' : 'lazy'}
      fetchPriority={eager ? 'high' : undefined}
      decoding="async"
    />
  );
}
