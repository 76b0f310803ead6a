import { useEffect, useState } from 'react';
import fallbackImage from '../../assets/login-fallback.svg';
import type { ShellConfig } from '../../config';

interface PhotoSearch {
  photos?: { src?: { large?: string } }[];
}

/**
 * docs/product.md, Routes and screens (Login): on a window 600px wide or wider, a random food photo from the stock-photo
 * service (Pexels-style search, 80 per page); the bundled image when there is no service, it fails,
 * or the window is narrow. Nothing is fetched under 600px.
 */
export function useLoginBackground(stockPhoto: ShellConfig['stockPhoto'], wide: boolean): { url: string; source: 'photo' | 'fallback' } {
  const [photo, setPhoto] = useState<string | null>(null);

  useEffect(() => {
    if (!wide || !stockPhoto?.url || !stockPhoto.key) return;
    const controller = new AbortController();
    const url = new URL(stockPhoto.url, window.location.href);
    url.searchParams.set('query', 'food');
    url.searchParams.set('per_page', '80');
    fetch(url, { headers: { Authorization: stockPhoto.key }, signal: controller.signal })
      .then(async (response) => {
        if (!response.ok) throw new Error(`photo search answered ${response.status}`);
        const photos = ((await response.json()) as PhotoSearch).photos?.map((item) => item.src?.large).filter(Boolean) ?? [];
        const chosen = photos[Math.floor(Math.random() * photos.length)];
        if (chosen) setPhoto(chosen);
      })
      .catch(() => {
        // the bundled image stays
      });
    return () => controller.abort();
  }, [wide, stockPhoto?.url, stockPhoto?.key]);

  return wide && photo ? { url: photo, source: 'photo' } : { url: fallbackImage, source: 'fallback' };
}
