import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { fakeAuth, renderShell, testConfig } from '../../test/render';

const stockPhoto = { url: 'http://photos.test/v1/search', key: 'photo-key' };

function stubPhotoSearch(response: Response | Error) {
  const fetchMock = vi.fn(async () => {
    if (response instanceof Error) throw response;
    return response;
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

describe('login background', () => {
  it('uses a random food photo from the stock-photo service on a wide window', async () => {
    const fetchMock = stubPhotoSearch(
      new Response(JSON.stringify({ photos: [{ src: { large: 'http://photos.test/a.jpg' } }] }), { status: 200 }),
    );
    renderShell({ path: '/login', auth: fakeAuth(null), config: { ...testConfig, stockPhoto } });
    await waitFor(() => expect(screen.getByTestId('login-background').getAttribute('data-source')).toBe('photo'));
    expect(screen.getByTestId('login-background').style.backgroundImage).toContain('http://photos.test/a.jpg');
    const [url, init] = fetchMock.mock.calls[0] as unknown as [URL, RequestInit];
    expect(String(url)).toBe('http://photos.test/v1/search?query=food&per_page=80');
    expect(new Headers(init.headers).get('Authorization')).toBe('photo-key');
  });

  it('falls back to the bundled image when the service fails', async () => {
    stubPhotoSearch(new Error('offline'));
    renderShell({ path: '/login', auth: fakeAuth(null), config: { ...testConfig, stockPhoto } });
    const background = await screen.findByTestId('login-background');
    await waitFor(() => expect(fetch).toHaveBeenCalled());
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(background.getAttribute('data-source')).toBe('fallback');
  });

  it('fetches nothing on a narrow window', async () => {
    const fetchMock = stubPhotoSearch(new Response('{}'));
    vi.spyOn(window, 'innerWidth', 'get').mockReturnValue(480);
    renderShell({ path: '/login', auth: fakeAuth(null), config: { ...testConfig, stockPhoto } });
    expect(await screen.findByRole('button', { name: 'Sign In With Example ID' })).toBeTruthy();
    expect(screen.queryByTestId('login-background')).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
