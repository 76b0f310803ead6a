import { toJpeg } from 'html-to-image';

/** The email is laid out at its usual width and its first screen captured. */
const RENDER_WIDTH = 600;
const RENDER_HEIGHT = 800;
/** Stored at 240 x 320 as a JPEG: a few kilobytes to a few tens. */
const IMAGE_WIDTH = 240;
const IMAGE_HEIGHT = 320;
/** Lower qualities tried in turn while the image is over the contract's bound (TemplatePreview). */
const JPEG_QUALITIES = [0.7, 0.5, 0.3];
export const PREVIEW_MAX_CHARS = 100_000;
/** A preview never holds a save up for long: past this it is left out and the old one stays. */
export const PREVIEW_TIMEOUT_MS = 10_000;
/** Stands in for images that cannot be fetched (an unreachable host must not fail the preview). */
const BLANK_IMAGE = 'data:image/gif;base64,R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==';

/**
 * A small JPEG (data URL) of the email's first screen. The html is laid out in an offscreen frame
 * whose sandbox allows no scripts (allow-same-origin only lets this page read the layout), so
 * nothing in a template ever runs in the app's origin; html-to-image then draws it on a canvas.
 */
export async function renderPreview(html: string): Promise<string> {
  const frame = document.createElement('iframe');
  frame.setAttribute('sandbox', 'allow-same-origin');
  frame.setAttribute('aria-hidden', 'true');
  frame.tabIndex = -1;
  frame.title = 'Template preview renderer';
  Object.assign(frame.style, {
    position: 'fixed',
    left: '-10000px',
    top: '0',
    width: `${RENDER_WIDTH}px`,
    height: `${RENDER_HEIGHT}px`,
    border: '0',
    pointerEvents: 'none',
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const loaded = new Promise<void>((resolve) => frame.addEventListener('load', () => resolve(), { once: true }));
    frame.srcdoc = html;
    document.body.appendChild(frame);
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('The preview took too long')), PREVIEW_TIMEOUT_MS);
    });
    await Promise.race([loaded, timeout]);
    const body = frame.contentDocument?.body;
    if (!body) throw new Error('The preview frame has no document');
    for (const quality of JPEG_QUALITIES) {
      const image = await Promise.race([
        toJpeg(body, {
          width: RENDER_WIDTH,
          height: RENDER_HEIGHT,
          canvasWidth: IMAGE_WIDTH,
          canvasHeight: IMAGE_HEIGHT,
          pixelRatio: 1,
          quality,
          backgroundColor: '#ffffff',
          skipFonts: true,
          imagePlaceholder: BLANK_IMAGE,
        }),
        timeout,
      ]);
      if (image.length <= PREVIEW_MAX_CHARS) return image;
    }
    throw new Error('The preview is too large even at low quality');
  } finally {
    clearTimeout(timer);
    frame.remove();
  }
}
