import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { API_SECURITY_HEADERS, securityHeaders } from '../http/security-headers.js';
import { createWebApp, remotesManifest, shellConfigOf } from './web.js';

const PORTS = { audiences: 3101, templates: 3102, campaigns: 3103, reports: 3104 };

/** Directive -> sources of a Content-Security-Policy header. */
function policy(header: string | undefined): Record<string, string[]> {
  expect(header, 'Content-Security-Policy').toBeTruthy();
  return Object.fromEntries(
    header!
      .split(';')
      .map((directive) => directive.trim().split(/\s+/))
      .map(([name, ...sources]) => [name, sources]),
  );
}

describe('the web front: the shell, its runtime configuration and the API on one origin', () => {
  let shellDist: string;
  const env = {
    NODE_ENV: 'test',
    OIDC_ISSUER: 'https://id.example.test/realms/org',
    EMAIL_EDITOR_SCRIPT_URL: 'https://editor.example.test/v2/embed.js',
    STOCK_PHOTO_URL: 'https://photos.example.test/v1/search',
    STOCK_PHOTO_KEY: 'photo-key',
    REMOTE_CAMPAIGNS_URL: 'https://cdn.example.test/campaigns/mf-manifest.json',
  };
  const web = (environment: Record<string, string> = env) => {
    const api = express();
    api.use(securityHeaders(API_SECURITY_HEADERS));
    api.get('/api/ping', (_request, response) => void response.json({ ok: true }));
    return createWebApp({
      shellDist,
      shellConfig: shellConfigOf(loadConfig(environment)),
      remotes: remotesManifest(environment, PORTS, 'localhost'),
      api,
    });
  };

  beforeAll(async () => {
    shellDist = await mkdtemp(join(tmpdir(), 'mailroom-shell-'));
    await writeFile(join(shellDist, 'index.html'), '<!doctype html><script defer src="/main.0123abcd.js"></script><div id="root"></div>');
    await writeFile(join(shellDist, 'silent-check-sso.html'), '<!doctype html><script defer src="/silent.0123abcd.js"></script>');
    await writeFile(join(shellDist, 'main.0123abcd.js'), 'console.log(1);');
    await writeFile(join(shellDist, 'favicon.ico'), Buffer.from([0, 0, 1, 0]));
    await mkdir(join(shellDist, 'assets'));
  });
  afterAll(() => rm(shellDist, { recursive: true, force: true }));

  it('serves the favicon under its fixed name, never cached for good', async () => {
    const response = await request(web()).get('/favicon.ico').expect(200);
    expect(response.headers['content-type']).toMatch(/^image\//);
    expect(response.headers['cache-control']).toBe('no-cache');
    const bundle = await request(web()).get('/main.0123abcd.js').expect(200);
    expect(bundle.headers['cache-control']).toContain('immutable');
  });

  it("sends the shell's pages under a policy naming what the shell loads, and nothing inline for scripts", async () => {
    const response = await request(web()).get('/audiences/3').set('Accept', 'text/html').expect(200);
    expect(response.text).toContain('<div id="root">');
    const csp = policy(response.headers['content-security-policy']);

    const remotes = ['http://localhost:3101', 'http://localhost:3102', 'https://cdn.example.test', 'http://localhost:3104'];
    expect(csp['script-src']).toEqual(["'self'", ...remotes, 'https://editor.example.test']);
    expect(csp['style-src']).toEqual(["'self'", "'unsafe-inline'", ...remotes]);
    expect(csp['connect-src']).toEqual([
      "'self'",
      ...remotes,
      'https://id.example.test',
      'https://editor.example.test',
      'https://photos.example.test',
    ]);
    expect(csp['frame-src']).toEqual(["'self'", 'https://id.example.test', 'https://editor.example.test']);
    expect(csp['img-src']).toEqual(expect.arrayContaining(["'self'", 'data:', 'https:', 'https://editor.example.test']));
    expect(csp['default-src']).toEqual(["'self'"]);
    expect(csp['object-src']).toEqual(["'none'"]);
    expect(csp['base-uri']).toEqual(["'none'"]);
    expect(csp['frame-ancestors']).toEqual(["'none'"]);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  });

  it("allows the default email editor's origin when EMAIL_EDITOR_SCRIPT_URL is not set", async () => {
    const { EMAIL_EDITOR_SCRIPT_URL: _unset, ...withoutEditor } = env;
    const response = await request(web(withoutEditor)).get('/').set('Accept', 'text/html').expect(200);
    const csp = policy(response.headers['content-security-policy']);
    expect(csp['script-src']).toContain('https://editor.unlayer.com');
    expect(csp['frame-src']).toContain('https://editor.unlayer.com');
    expect(csp['script-src']).not.toContain('https://editor.example.test');
  });

  it('lets only the shell itself frame its silent sign-in page', async () => {
    const response = await request(web()).get('/silent-check-sso.html').expect(200);
    const csp = policy(response.headers['content-security-policy']);
    expect(csp['frame-ancestors']).toEqual(["'self'"]);
    expect(csp['script-src']).toContain("'self'");
    expect(csp['script-src']).not.toContain("'unsafe-inline'");
  });

  it('sends config.json, remotes.json and the bundles with nosniff, a Referrer-Policy and no framing', async () => {
    const app = web();
    for (const path of ['/config.json', '/remotes.json', '/main.0123abcd.js']) {
      const response = await request(app).get(path).expect(200);
      expect(response.headers['x-content-type-options'], path).toBe('nosniff');
      expect(response.headers['referrer-policy'], path).toBe('strict-origin-when-cross-origin');
      expect(policy(response.headers['content-security-policy'])['frame-ancestors'], path).toEqual(["'none'"]);
    }
    const config = await request(app).get('/config.json').expect(200);
    expect(config.body.features.emailEditorScriptUrl).toBe('https://editor.example.test/v2/embed.js');
  });

  it("leaves the API's answers with the API's own headers", async () => {
    const response = await request(web()).get('/api/ping').expect(200);
    expect(response.headers['content-security-policy']).toBe(API_SECURITY_HEADERS['Content-Security-Policy']);
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });
});
