import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('has working defaults for local development', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      nodeEnv: 'development',
      // The image's port, inside it or not.
      port: 8080,
      amqpUrl: undefined,
      oidc: { issuer: 'http://localhost:4000', audience: 'mailroom-api', clientId: 'mailroom-shell', jwksUri: undefined },
      orgEmailDomain: 'example.org',
      orgName: 'Example',
      publicUrl: 'http://localhost:8080',
      import: { maxBytes: 200 * 1024 * 1024, maxLineChars: 64 * 1024, maxColumns: 200, staleAfterMs: 30 * 60_000 },
      sending: { concurrency: 50, staleAfterMs: 120_000, unconfirmedResendAfterMs: 3_600_000 },
      stack: {
        host: 'localhost',
        embedded: { postgres: true, ses: true, oidc: true },
        ports: { postgres: 5433, ses: 8005, oidc: 4000, remotesBase: 3100 },
      },
      validateResponses: true,
      authorizedSenders: ['newsletter@example.org'],
    });
    expect(config.trackingSecret.length).toBeGreaterThanOrEqual(16);
  });

  it('reads the environment', () => {
    const config = loadConfig({
      PORT: '8081',
      AMQP_URL: 'amqp://guest:guest@127.0.0.1:5672',
      QUEUE_PREFIX: 'staging.',
      ORG_EMAIL_DOMAIN: 'Example.ORG',
      AUTHORIZED_SENDER_EMAILS: ' news@example.org, , team@example.org ',
      PUBLIC_URL: 'https://mail.example.org/',
      IMPORT_MAX_BYTES: '1048576',
      IMPORT_DIR: '/var/spool/mailroom',
      IMPORT_STALE_MINUTES: '5',
      SEND_CONCURRENCY: '8',
      SEND_STALE_SECONDS: '30',
      VALIDATE_RESPONSES: 'false',
      MAILROOM_OPERATION_LOG: '/tmp/ops.jsonl',
      SES_ENDPOINT: '',
    });
    expect(config).toMatchObject({
      port: 8081,
      amqpUrl: 'amqp://guest:guest@127.0.0.1:5672',
      queuePrefix: 'staging.',
      orgEmailDomain: 'example.org',
      authorizedSenders: ['news@example.org', 'team@example.org'],
      publicUrl: 'https://mail.example.org',
      import: { maxBytes: 1048576, spool: { kind: 'folder', dir: '/var/spool/mailroom' }, staleAfterMs: 5 * 60_000 },
      sending: { concurrency: 8, staleAfterMs: 30_000, unconfirmedResendAfterMs: 3_600_000 },
      stack: { embedded: { postgres: true, ses: true, oidc: true } },
      validateResponses: false,
      operationLogPath: '/tmp/ops.jsonl',
      aws: { sesEndpoint: undefined },
    });
  });

  it('reads the maximum token age and the rate limits', () => {
    expect(loadConfig({})).toMatchObject({ tokenMaxAgeSeconds: 86_400, rateLimits: { signInFailures: 100, publicRequests: 3000 } });
    expect(loadConfig({ TOKEN_MAX_AGE_SECONDS: '600', RATE_LIMIT_SIGN_IN_FAILURES: '5', RATE_LIMIT_PUBLIC: '10' })).toMatchObject({
      tokenMaxAgeSeconds: 600,
      rateLimits: { signInFailures: 5, publicRequests: 10 },
    });
    expect(() => loadConfig({ TOKEN_MAX_AGE_SECONDS: '0' })).toThrow(ConfigError);
  });

  it('spools imports in S3 when S3_BUCKET is set, with the S3-compatible settings', () => {
    expect(loadConfig({}).import.spool).toMatchObject({ kind: 'folder' });
    expect(loadConfig({ S3_BUCKET: 'mailroom-imports', AWS_REGION: 'eu-west-1', IMPORT_DIR: '/unused' }).import.spool).toEqual({
      kind: 's3',
      bucket: 'mailroom-imports',
      region: 'eu-west-1',
      endpoint: undefined,
      forcePathStyle: false,
    });
    expect(
      loadConfig({ S3_BUCKET: 'spool', S3_ENDPOINT: 'http://127.0.0.1:9000', S3_FORCE_PATH_STYLE: 'true' }).import.spool,
    ).toMatchObject({ kind: 's3', region: 'us-east-1', endpoint: 'http://127.0.0.1:9000', forcePathStyle: true });
  });

  it('refuses half an S3 spool configuration at start', () => {
    const problems = (env: NodeJS.ProcessEnv) => {
      try {
        loadConfig(env);
        return [];
      } catch (error) {
        return (error as ConfigError).problems;
      }
    };
    // The S3-compatible settings without a bucket would leave the spool a local folder, unseen by other hosts.
    expect(problems({ S3_ENDPOINT: 'http://127.0.0.1:9000' })).toEqual([expect.stringMatching(/^S3_ENDPOINT: set S3_BUCKET too/)]);
    expect(problems({ S3_FORCE_PATH_STYLE: 'true' })).toEqual([expect.stringMatching(/^S3_FORCE_PATH_STYLE: set S3_BUCKET too/)]);
    expect(problems({ S3_BUCKET: 'Not_A_Bucket' })).toEqual([expect.stringMatching(/^S3_BUCKET: must be an S3 bucket name/)]);
    expect(problems({ S3_BUCKET: 'spool', S3_ENDPOINT: 'ftp://x' })).toEqual([expect.stringMatching(/^S3_ENDPOINT: must be a URL/)]);
    expect(problems({ S3_BUCKET: 'spool', S3_FORCE_PATH_STYLE: 'yes' })).toEqual([
      expect.stringMatching(/^S3_FORCE_PATH_STYLE: must be true or false/),
    ]);
    expect(problems({ S3_BUCKET: 'spool', AWS_ACCESS_KEY_ID: 'AKIAEXAMPLE' })).toEqual([
      'AWS_SECRET_ACCESS_KEY: required with AWS_ACCESS_KEY_ID',
    ]);
    expect(problems({ AWS_SECRET_ACCESS_KEY: 'secret' })).toEqual(['AWS_ACCESS_KEY_ID: required with AWS_SECRET_ACCESS_KEY']);
    const production = {
      NODE_ENV: 'production',
      DATABASE_URL: 'postgres://db/mailroom',
      OIDC_ISSUER: 'https://id.example.org/realms/x',
      AUTHORIZED_SENDER_EMAILS: 'news@example.org',
      PUBLIC_URL: 'https://mail.example.org',
      TRACKING_SECRET: 'a-production-tracking-secret',
      AMQP_URL: 'amqp://broker',
      ORG_EMAIL_DOMAIN: 'example.org',
    };
    expect(problems({ ...production, S3_BUCKET: 'spool' })).toEqual([expect.stringMatching(/^AWS_REGION: required with S3_BUCKET/)]);
    expect(problems({ ...production, S3_BUCKET: 'spool', AWS_REGION: 'eu-west-1' })).toEqual([]);
  });

  it('reads send approval: off by default, for every send, or above a number of contacts; refuses other values', () => {
    expect(loadConfig({}).approval).toEqual({ always: false, above: undefined });
    expect(loadConfig({ SEND_APPROVAL: 'true' }).approval).toEqual({ always: true, above: undefined });
    expect(loadConfig({ SEND_APPROVAL_ABOVE: '5000' }).approval).toEqual({ always: false, above: 5000 });
    expect(loadConfig({ SEND_APPROVAL: '', SEND_APPROVAL_ABOVE: '' }).approval).toEqual({ always: false, above: undefined });
    const problems = (env: Record<string, string>) => {
      try {
        loadConfig(env);
        return [];
      } catch (error) {
        return (error as ConfigError).problems;
      }
    };
    expect(problems({ SEND_APPROVAL: 'yes' })).toEqual([expect.stringMatching(/^SEND_APPROVAL: must be true or false/)]);
    expect(problems({ SEND_APPROVAL_ABOVE: '-1' })).toEqual([expect.stringMatching(/^SEND_APPROVAL_ABOVE: must be a whole number/)]);
    expect(problems({ SEND_APPROVAL_ABOVE: '1e3' })).toEqual([expect.stringMatching(/^SEND_APPROVAL_ABOVE: must be a whole number/)]);
  });

  it('is frozen', () => {
    const config = loadConfig({});
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.oidc)).toBe(true);
    expect(Object.isFrozen(config.authorizedSenders)).toBe(true);
  });

  it('takes the organisation locale merge tags write in, en-GB by default, and refuses one Intl does not know', () => {
    expect(loadConfig({}).orgLocale).toBe('en-GB');
    expect(loadConfig({ ORG_LOCALE: 'de-DE' }).orgLocale).toBe('de-DE');
    expect(() => loadConfig({ ORG_LOCALE: 'not a locale' })).toThrow(/ORG_LOCALE: must be a locale such as en-GB/);
    expect(() => loadConfig({ ORG_LOCALE: 'en_GB' })).toThrow(/ORG_LOCALE/);
  });

  it('fails fast, naming every bad variable', () => {
    const attempt = () =>
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', AUTHORIZED_SENDER_EMAILS: 'not-an-address', LOG_LEVEL: 'loud' });
    expect(attempt).toThrow(ConfigError);
    try {
      attempt();
    } catch (error) {
      const message = (error as Error).message;
      expect(message).toMatch(/^Invalid configuration:/);
      expect(message).toMatch(/PORT: must be a port number/);
      expect(message).toMatch(/DATABASE_URL: must be a URL \(postgres: or postgresql:\)/);
      expect(message).toMatch(/AUTHORIZED_SENDER_EMAILS.*must be an email address/);
      expect(message).toMatch(/LOG_LEVEL/);
    }
  });

  it('requires real values in production, and keeps response validation off there', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/TRACKING_SECRET: required when NODE_ENV=production/);
    const config = loadConfig({
      NODE_ENV: 'production',
      DATABASE_URL: 'postgres://mailroom@db/mailroom',
      OIDC_ISSUER: 'https://id.example.org/realms/example',
      ORG_EMAIL_DOMAIN: 'example.org',
      PUBLIC_URL: 'https://mail.example.org',
      TRACKING_SECRET: 'a-long-random-production-secret',
      AUTHORIZED_SENDER_EMAILS: 'news@example.org',
      AMQP_URL: 'amqp://mailroom@broker',
    });
    expect(config.validateResponses).toBe(false);
    expect(() => loadConfig({ NODE_ENV: 'production', TRACKING_SECRET: 'short' })).toThrow(/TRACKING_SECRET: must be at least 16/);
  });

  it('takes a stand-in SNS certificate for the embedded stack, never in production', () => {
    expect(loadConfig({}).stack.snsCertificateFile).toBeUndefined();
    expect(loadConfig({ EMBEDDED_SNS_CERTIFICATE_FILE: '/tmp/sns.pem' }).stack.snsCertificateFile).toBe('/tmp/sns.pem');
    const production = {
      NODE_ENV: 'production',
      DATABASE_URL: 'postgres://mailroom@db/mailroom',
      OIDC_ISSUER: 'https://id.example.org/realms/example',
      ORG_EMAIL_DOMAIN: 'example.org',
      PUBLIC_URL: 'https://mail.example.org',
      TRACKING_SECRET: 'a-long-random-production-secret',
      AUTHORIZED_SENDER_EMAILS: 'news@example.org',
      AMQP_URL: 'amqp://mailroom@broker',
    };
    expect(loadConfig(production).stack.snsCertificateFile).toBeUndefined();
    expect(() => loadConfig({ ...production, EMBEDDED_SNS_CERTIFICATE_FILE: '/tmp/sns.pem' })).toThrow(
      /EMBEDDED_SNS_CERTIFICATE_FILE: not allowed when NODE_ENV=production/,
    );
  });

  describe('in production', () => {
    const production = {
      NODE_ENV: 'production',
      DATABASE_URL: 'postgres://mailroom@db/mailroom',
      AMQP_URL: 'amqp://mailroom@broker',
      OIDC_ISSUER: 'https://id.example.org/realms/example',
      ORG_EMAIL_DOMAIN: 'example.org',
      PUBLIC_URL: 'https://mail.example.org',
      TRACKING_SECRET: 'a-long-random-production-secret',
      AUTHORIZED_SENDER_EMAILS: 'news@example.org',
    };

    it('refuses to start the API or a worker without a broker, which development does without', () => {
      expect(loadConfig(production).amqpUrl).toBe('amqp://mailroom@broker');
      expect(() => loadConfig({ ...production, AMQP_URL: '' })).toThrow(/AMQP_URL: required when NODE_ENV=production/);
      expect(loadConfig({ ...production, NODE_ENV: 'development', AMQP_URL: undefined }).amqpUrl).toBeUndefined();
    });

    it('refuses the development tracking secret, which anyone can read', () => {
      const { trackingSecret } = loadConfig({});
      expect(() => loadConfig({ ...production, TRACKING_SECRET: trackingSecret })).toThrow(
        /TRACKING_SECRET: the development secret is not allowed when NODE_ENV=production/,
      );
    });

    it('refuses a placeholder tracking secret, however long, as an example file or guide would give it', () => {
      for (const placeholder of [
        'CHANGE-ME-32-random-bytes-or-more',
        'changeme-changeme-changeme',
        'replace_me_with_a_real_secret',
        'your-secret-goes-here-please',
        'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
      ]) {
        expect(() => loadConfig({ ...production, TRACKING_SECRET: placeholder }), placeholder).toThrow(
          /TRACKING_SECRET: a placeholder is not allowed when NODE_ENV=production/,
        );
        // Development takes anything of the length.
        expect(loadConfig({ ...production, NODE_ENV: 'development', TRACKING_SECRET: placeholder }).trackingSecret).toBe(placeholder);
      }
      const random = 'q7Xv2f9LkP0sT4wZ8bN1mC6hJ3dR5yGa';
      expect(loadConfig({ ...production, TRACKING_SECRET: random }).trackingSecret).toBe(random);
    });

    it('asks the static front and the migration step only for the settings they use', () => {
      const web = {
        NODE_ENV: 'production',
        OIDC_ISSUER: production.OIDC_ISSUER,
        ORG_EMAIL_DOMAIN: 'example.org',
        PUBLIC_URL: production.PUBLIC_URL,
      };
      expect(loadConfig(web, { role: 'web' }).oidc.issuer).toBe(production.OIDC_ISSUER);
      expect(() => loadConfig(web)).toThrow(/TRACKING_SECRET: required/);
      expect(() => loadConfig({ NODE_ENV: 'production', PUBLIC_URL: production.PUBLIC_URL }, { role: 'web' })).toThrow(
        /OIDC_ISSUER: required when NODE_ENV=production/,
      );
      expect(() => loadConfig({ ...web, ORG_EMAIL_DOMAIN: undefined }, { role: 'web' })).toThrow(
        /ORG_EMAIL_DOMAIN: required when NODE_ENV=production/,
      );
      const migrate = { NODE_ENV: 'production', DATABASE_URL: production.DATABASE_URL };
      expect(loadConfig(migrate, { role: 'migrate' }).databaseUrl).toBe(production.DATABASE_URL);
      expect(() => loadConfig({ NODE_ENV: 'production' }, { role: 'migrate' })).toThrow(/DATABASE_URL: required/);
    });
  });

  it('trusts the client address given by the proxies TRUST_PROXY names, never by any hop', () => {
    expect(loadConfig({}).trustProxy).toEqual(['loopback']);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8,192.0.2.7, fd00::/8, uniquelocal' }).trustProxy).toEqual([
      'loopback',
      '10.0.0.0/8',
      '192.0.2.7',
      'fd00::/8',
      'uniquelocal',
    ]);
    for (const bad of ['true', 'everyone', '10.0.0.0/33', '10.0.0.0/8/1', 'fd00::/129', '300.1.1.1', 'loopback,']) {
      expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY: must be a hop count, false, or addresses/);
    }
  });
});
